import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AuditRecord } from '../../src/protocol/audit';
import type { CoreState, Mode } from '../../src/protocol';
import { oneLine } from '../look/format';
import { useTheme } from '../look/use-theme';
import { Panel } from '../widgets/Panel';
import { PANEL_FOOTERS, POLICY_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';

type Props = {
  mode: Mode;
  sandboxed: boolean;
  grants: number;
  policy: CoreState['policy'];
  /** The project's trust: which of its rules and settings are held back. */
  trust?: CoreState['trust'];
  recentAudit: AuditRecord[];
  isActive: boolean;
  width: number;
  maxRows: number;
  onClose: () => void;
};

const MODE_MEANING: Record<Mode, string> = {
  manual: 'every call that changes something asks; read-only tools run freely',
  'auto-edit': 'file writes inside the project run without asking; commands and the rest ask',
  plan: 'read-only: nothing that changes the world runs; the model proposes a plan for review',
  auto: 'nothing asks; hard guards, deny rules and high-risk calls still stop',
};

const ORDER = [
  'hard guards (path fence, command guard, SSRF, size caps) — deny, cannot be approved',
  'rules (deny beats ask beats allow) from builtin, managed (/etc/warden/policy.json, locked), user ($WARDEN_HOME/policy.json) and project (.warden/policy.json)',
  'the mode and the call’s risk',
  'session grants (approve-all)',
];

/** Rule ids that decided the recent calls, most used first: what the state can vouch for. */
function recentRules(records: AuditRecord[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.rule, (counts.get(r.rule) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6);
}

const TRUST_MEANING = {
  none: "the project's .warden files loosen nothing; their ask and deny rules count",
  untrusted: 'not trusted: these project rules and settings are held back (ask and deny rules count)',
  trusted: 'trusted: these project rules and settings are in force',
} as const;

/** The project's trust and what it holds back or lets through. */
function ProjectTrustLines({ trust }: { trust: CoreState['trust'] }): ReactNode {
  const theme = useTheme();
  if (!trust) return null;
  const by =
    trust.by === 'flag'
      ? ' (--trust-project, this run only)'
      : trust.by
        ? ` (recorded in ${trust.store})`
        : '';
  return (
    <>
      <Text> </Text>
      <Text bold>Project trust</Text>
      <Text wrap="wrap" color={trust.status === 'untrusted' ? theme.warn : undefined}>
        {'  '}
        {TRUST_MEANING[trust.status]}
        {trust.status === 'trusted' ? by : ''}
      </Text>
      {trust.items.map((item, i) => (
        <Text key={i} wrap="truncate-end">
          {'    '}
          {trust.status === 'untrusted' ? 'held ' : ''}
          {item.kind} {oneLine(item.text)}
        </Text>
      ))}
    </>
  );
}

type Source = NonNullable<CoreState['policy']>['sources'][number];

/** One rule source: its file and count; the managed one locked, with its rules, and what it keeps out. */
function SourceLine({ source: s }: { source: Source }): ReactNode {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {'  '}
        {s.source}
        {s.path ? ` ${s.path}` : ''} · {s.rules} rules
        {s.locked ? ' · locked: nothing below loosens them' : ''}
        {s.held ? <Text color={theme.warn}> · {s.held} held back (not trusted)</Text> : null}
        {s.ignored ? <Text color={theme.warn}> · {s.ignored} ignored (managed rules only)</Text> : null}
        {s.error ? <Text color={theme.error}> ✗ {s.error}</Text> : null}
      </Text>
      {s.only ? (
        <Text wrap="truncate-end" color={theme.warn}>
          {'    '}allowManagedRulesOnly: your rules and the project's do not count
        </Text>
      ) : null}
      {(s.lines ?? []).map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {'    '}
          {oneLine(line)}
        </Text>
      ))}
    </Box>
  );
}

/** /policy: the mode, the order rules apply in, and what the core reported about rule sources. */
export function PolicyPanel(props: Props): ReactNode {
  const { mode, sandboxed, grants, policy, trust, recentAudit, isActive, width, maxRows, onClose } = props;
  const theme = useTheme();
  useKeyTable(POLICY_KEYS, { close: onClose }, { isActive });
  const rules = recentRules(recentAudit);
  return (
    // Clipped at maxRows on a short terminal; the order and sources come first, so they stay.
    <Panel
      title="Policy"
      footer={PANEL_FOOTERS.policy}
      width={width}
      height={maxRows < 24 ? maxRows : undefined}
    >
      <Text>
        <Text bold>mode {mode}</Text>: {MODE_MEANING[mode]}
      </Text>
      <Text color={sandboxed ? undefined : theme.warn}>
        {sandboxed
          ? 'commands run in the sandbox (network off, project writable)'
          : '⚠ no sandbox: every command asks'}
      </Text>
      <Text> </Text>
      <Text bold>Checked in this order</Text>
      {ORDER.map((line, i) => (
        <Text key={line} wrap="wrap">{`${i + 1}. ${line}`}</Text>
      ))}
      <Text> </Text>
      <Text bold>Rule sources</Text>
      {policy ? (
        policy.sources.map((s) => (
          <Box key={`${s.source}:${s.path ?? ''}`}>
            <SourceLine source={s} />
          </Box>
        ))
      ) : (
        <Text dimColor> the core did not report its rule sources</Text>
      )}
      <Text>
        {' '}
        {grants} active grant{grants === 1 ? '' : 's'} (/grants)
      </Text>
      <ProjectTrustLines trust={trust} />
      <Text> </Text>
      <Text bold>Rules that decided recent calls</Text>
      {rules.length === 0 ? <Text dimColor> none yet</Text> : null}
      {rules.map(([rule, n]) => (
        <Text key={rule}>
          {' '}
          {rule} ×{n}
        </Text>
      ))}
    </Panel>
  );
}
