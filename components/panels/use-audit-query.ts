import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditCursor, AuditQuery, AuditRecord, AuditStats } from '../../src/protocol/audit';
import type { CoreClient } from '../../src/protocol';

/** The records loaded so far (newest first), whether older ones remain, and the day's stats once counted. */
export type AuditPages = {
  loading: boolean;
  records: AuditRecord[];
  /** Older records remain: `loadMore` fetches the next page. */
  more: boolean;
  stats?: AuditStats;
  loadMore: () => void;
};

/** The filters the browser sends with each page: everything but the day. */
export type AuditSelection = Pick<AuditQuery, 'tool' | 'outcome' | 'approver' | 'agent' | 'text'>;

let nextQuery = 0;
const newQueryId = () => `audit-browser-${++nextQuery}`;

/**
 * One day of the audit log, a page at a time from its newest record: a new day or selection sends
 * a fresh `query_audit` (the core filters and searches, reading the file from its end); `loadMore`
 * asks for the page below the last. Answers to queries the browser has moved on from are ignored.
 * The day's stats are asked for once per day and arrive as `audit_stats`.
 */
export function useAuditPages(client: CoreClient, day: string, selection: AuditSelection): AuditPages {
  const [state, setState] = useState<Omit<AuditPages, 'loadMore'>>({
    loading: true,
    records: [],
    more: false,
  });
  const pending = useRef('');
  const statsQuery = useRef('');
  const before = useRef<AuditCursor | undefined>(undefined);
  const query = useRef<AuditQuery>({});
  const key = JSON.stringify(selection);

  useEffect(
    () =>
      client.subscribe(
        (event) => {
          if (event.type === 'audit_result' && event.queryId === pending.current) {
            pending.current = '';
            before.current = event.before;
            setState((s) => ({
              ...s,
              loading: false,
              records: s.loading ? event.records : [...s.records, ...event.records],
              more: event.before !== undefined,
            }));
          } else if (event.type === 'audit_stats' && event.queryId === statsQuery.current) {
            setState((s) => ({ ...s, stats: event.stats }));
          }
        },
        ['audit_result', 'audit_stats'],
      ),
    [client],
  );

  // A new day asks for its stats; a new selection on the same day keeps them.
  const lastDay = useRef('');
  useEffect(() => {
    const queryId = newQueryId();
    const withStats = lastDay.current !== day;
    lastDay.current = day;
    pending.current = queryId;
    if (withStats) statsQuery.current = queryId;
    before.current = undefined;
    const parsed = JSON.parse(key) as AuditSelection;
    query.current = { from: day, to: day, ...stripEmpty(parsed) };
    setState((s) => ({ loading: true, records: [], more: false, stats: withStats ? undefined : s.stats }));
    client.send({
      type: 'query_audit',
      queryId,
      query: query.current,
      ...(withStats ? { stats: true } : {}),
    });
  }, [client, day, key]);

  const loadMore = useCallback(() => {
    if (pending.current !== '' || before.current === undefined) return;
    const queryId = newQueryId();
    pending.current = queryId;
    client.send({ type: 'query_audit', queryId, query: query.current, before: before.current });
  }, [client]);

  return { ...state, loadMore };
}

function stripEmpty(selection: AuditSelection): AuditSelection {
  const out: AuditSelection = {};
  for (const [k, v] of Object.entries(selection) as [keyof AuditSelection, string | undefined][]) {
    if (v !== undefined && v.trim() !== '') Object.assign(out, { [k]: v });
  }
  return out;
}
