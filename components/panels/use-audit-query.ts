import { useEffect, useRef, useState } from 'react';
import type { AuditRecord, AuditStats } from '../../src/protocol/audit';
import type { CoreClient } from '../../src/protocol';

export type AuditDay = { loading: boolean; records: AuditRecord[]; stats?: AuditStats };

let nextQuery = 0;

/**
 * Every audit record of `day`: sends one `query_audit` per day and keeps the `audit_result`
 * answering it. Answers to earlier queries (a day already left) are ignored.
 */
export function useAuditDay(client: CoreClient, day: string): AuditDay {
  const [result, setResult] = useState<AuditDay>({ loading: true, records: [] });
  const current = useRef('');
  useEffect(() => {
    nextQuery += 1;
    const queryId = `audit-browser-${nextQuery}`;
    current.current = queryId;
    setResult({ loading: true, records: [] });
    const unsubscribe = client.subscribe((event) => {
      if (event.type === 'audit_result' && event.queryId === current.current) {
        setResult({ loading: false, records: event.records, stats: event.stats });
      }
    });
    client.send({ type: 'query_audit', queryId, query: { from: day, to: day } });
    return unsubscribe;
  }, [client, day]);
  return result;
}
