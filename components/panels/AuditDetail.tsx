import { Box, Text } from 'ink';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import type { AuditRecord } from '../../src/protocol/audit';
import { useTheme } from '../look/use-theme';
import { AUDIT_DETAIL_KEYS, keyId, lookup } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';
import { auditDetailRows, scrollTo } from './audit-detail-rows';

type Props = {
  record: AuditRecord;
  width: number;
  rows: number;
  agentName: (id: string) => string;
  /** Whether its scroll keys are live (↑↓ PgUp PgDn Home End); the browser keeps ←→ and Esc. */
  isActive?: boolean;
};

/**
 * One audit record in full, nothing cut: args and editedArgs side by side when wide, stacked when
 * narrow, long lines wrapped; the view scrolls over it, with its position on the last row.
 */
export function AuditDetail({ record, width, rows, agentName, isActive = false }: Props): ReactNode {
  const theme = useTheme();
  const all = useMemo(() => auditDetailRows(record, width, agentName), [record, width, agentName]);
  const visible = Math.max(1, rows - 1);
  const [offset, setOffset] = useState(0);
  // Another record starts at its top.
  useEffect(() => setOffset(0), [record]);
  const by = (delta: number) => setOffset((o) => scrollTo(o, delta, all.length, visible));
  useKeys(
    (input, key) => {
      const id = keyId(input, key);
      const action = lookup(AUDIT_DETAIL_KEYS, id);
      const back = id === 'up' || id === 'pgup' || id === 'home' ? -1 : 1;
      if (action === 'scroll') by(back);
      else if (action === 'page') by(back * visible);
      else if (action === 'ends') by(back * all.length);
    },
    { isActive },
  );
  const top = scrollTo(offset, 0, all.length, visible);
  const shown = all.slice(top, top + visible);
  const last = Math.min(all.length, top + visible);
  const scrolls = all.length > visible;
  return (
    <Box flexDirection="column">
      {shown.map((row, i) => (
        <Text
          key={top + i}
          wrap="truncate-end"
          bold={row.tone === 'title'}
          dimColor={row.tone === 'dim'}
          color={row.tone === 'warn' ? theme.warn : undefined}
        >
          {row.text || ' '}
        </Text>
      ))}
      <Text dimColor>
        {scrolls
          ? `lines ${top + 1}–${last} of ${all.length}${top > 0 ? ' · ↑ more above' : ''}${last < all.length ? ' · ↓ more below' : ''}`
          : `all ${all.length} lines`}
      </Text>
    </Box>
  );
}
