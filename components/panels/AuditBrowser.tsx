import { Box, type Key, Text } from 'ink';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentInfo, AuditExportState, CoreClient } from '../../src/protocol';
import { AuditDetail } from './AuditDetail';
import { AuditList } from './AuditList';
import { AuditStatsHeader } from './AuditStatsHeader';
import {
  type AuditFilters,
  cycle,
  type FilterField,
  localDay,
  shiftDay,
  mergeSeen,
  type SeenValues,
} from './audit-filters';
import { type AuditSelection, useAuditPages } from './use-audit-query';
import { useListCursor } from './use-list-cursor';
import { useTheme } from '../look/use-theme';
import { Panel } from '../widgets/Panel';
import { TextField } from '../widgets/TextField';
import {
  AUDIT_DETAIL_KEYS,
  AUDIT_KEYS,
  AUDIT_SEARCH_KEYS,
  type AuditAction,
  keyId,
  lookup,
  PANEL_FOOTERS,
} from '../keys/keymap';
import { burstKeys } from '../keys/key-burst';
import { useKeyTable, useKeys } from '../keys/use-keys';

/** The filter each filter key cycles. */
const FILTER_OF: Partial<Record<AuditAction, FilterField>> = {
  filter_tool: 'tool',
  filter_outcome: 'outcome',
  filter_approver: 'approver',
  filter_agent: 'agent',
};

type Props = {
  client: CoreClient;
  agents: AgentInfo[];
  isActive: boolean;
  width: number;
  height: number;
  onClose: () => void;
  /** The audit log's export (`CoreState.auditExport`), when one is configured. */
  exported?: AuditExportState | undefined;
  /** The clock, injectable so tests pick "today". */
  now?: () => Date;
};

/** /audit, full screen: one day of records with filters, search, a detail view and the day's stats. */
export function AuditBrowser({
  client,
  agents,
  isActive,
  width,
  height,
  onClose,
  exported,
  now = () => new Date(),
}: Props): ReactNode {
  const theme = useTheme();
  const today = useMemo(() => localDay(now()), [now]);
  const [day, setDay] = useState(today);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [search, setSearch] = useState('');
  const [searching, setSearching] = useState(false);
  const [detail, setDetail] = useState(false);
  // The core filters and searches (from the file's end, a page at a time); the list shows what came back.
  const selection = useMemo<AuditSelection>(
    () => ({ ...filters, text: search }) as AuditSelection,
    [filters, search],
  );
  const result = useAuditPages(client, day, selection);
  const shown = result.records;
  const seenRef = useRef<{ day: string; values: SeenValues } | undefined>(undefined);
  const seen = useMemo(() => {
    const prev = seenRef.current?.day === day ? seenRef.current.values : undefined;
    const values = mergeSeen(prev, result.records);
    seenRef.current = { day, values };
    return values;
  }, [day, result.records]);
  // Records carry the agent's name; the live agent list covers records written before they did.
  const names = useMemo(() => {
    const map = new Map(agents.map((a) => [a.id, a.name]));
    for (const r of result.records) if (r.agentName) map.set(r.agentId, r.agentName);
    return map;
  }, [agents, result.records]);
  const agentName = (id: string) => names.get(id) ?? id;
  // One row more for the stats header's approval metrics line.
  const listRows = Math.max(1, height - 10 - (exported ? 1 : 0));
  // In the detail view ↑↓ scroll the record (AuditDetail); ←→ step through the records.
  const [cursor, setCursor] = useListCursor(shown.length, {
    isActive: isActive && !searching && !detail,
    page: listRows,
  });
  // Older records load as the cursor nears the last one loaded.
  const { more, loadMore } = result;
  useEffect(() => {
    if (more && cursor >= shown.length - listRows) loadMore();
  }, [more, loadMore, cursor, shown.length, listRows]);

  // One key of a burst at a time ("xp" is x then p); a key that opens the detail or the search
  // field ends the burst, so what follows is not read as list keys.
  const listKey = (input: string, key: Key): boolean => {
    const id = keyId(input, key);
    if (detail) {
      const step = lookup(AUDIT_DETAIL_KEYS, id);
      if (step === 'back') setDetail(false);
      else if (step === 'record')
        setCursor((c) => Math.max(0, Math.min(shown.length - 1, c + (id === 'left' ? -1 : 1))));
      return true;
    }
    const action = lookup<AuditAction>(AUDIT_KEYS, id);
    if (action === 'close') {
      onClose();
      return false;
    }
    if (action === 'day_prev') setDay((d) => shiftDay(d, -1));
    else if (action === 'day_next') setDay((d) => (d < today ? shiftDay(d, 1) : d));
    else if (action === 'details' && shown[cursor]) setDetail(true);
    else if (action === 'search') setSearching(true);
    else if (action === 'clear') {
      setFilters({});
      setSearch('');
    } else if (action && FILTER_OF[action]) {
      const field = FILTER_OF[action];
      setFilters((f) => ({ ...f, [field]: cycle(f[field], seen[field]) }));
    }
    return action !== 'details' && action !== 'search';
  };
  useKeys(
    (input, key) => {
      for (const [one, k] of burstKeys(input, key)) if (!listKey(one, k)) return;
    },
    { isActive: isActive && !searching },
  );
  useKeyTable(
    AUDIT_SEARCH_KEYS,
    {
      clear: () => {
        setSearch('');
        setSearching(false);
      },
    },
    { isActive: isActive && searching },
  );

  const active = Object.entries(filters).filter(([, v]) => v !== undefined);
  const filterText = active.map(([k, v]) => `${k}=${k === 'agent' && v ? agentName(v) : v}`).join(' ');
  const record = shown[cursor];
  const footer = detail ? PANEL_FOOTERS.audit_detail : PANEL_FOOTERS.audit;
  return (
    <Panel
      title={`Audit · ${day}${day === today ? ' (today)' : ''}`}
      footer={footer}
      width={width}
      height={height}
    >
      <AuditStatsHeader stats={result.stats} exported={exported} />
      <Text wrap="truncate-end">
        <Text color={active.length ? theme.accent : undefined}>filters: {filterText || 'none'}</Text>
        {search && !searching ? <Text> · search “{search}”</Text> : null}
        <Text dimColor>
          {' '}
          · newest first, {shown.length}
          {result.more ? '+' : ''} shown{result.stats ? ` of ${result.stats.total} that day` : ''}
        </Text>
      </Text>
      {searching ? (
        <Box>
          <Text color={theme.accent}>search / </Text>
          <TextField
            value={search}
            onChange={setSearch}
            onSubmit={() => setSearching(false)}
            isActive={isActive && searching}
          />
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {result.loading ? <Text dimColor>loading {day}…</Text> : null}
        {!result.loading && shown.length === 0 ? (
          <Text dimColor>
            {active.length === 0 && !search ? `no audit records on ${day}` : 'nothing matches the filters'}
          </Text>
        ) : null}
        {detail && record ? (
          <AuditDetail
            record={record}
            width={width - 4}
            rows={height - 8 - (exported ? 1 : 0)}
            agentName={agentName}
            isActive={isActive && !searching}
          />
        ) : (
          <AuditList
            records={shown}
            cursor={cursor}
            rows={listRows}
            width={width - 4}
            agentName={agentName}
          />
        )}
      </Box>
    </Panel>
  );
}
