import type { HeldSetting } from '../config/screen';
import type { LoadedRule } from '../policy/rules';
import type { LooseningItem } from '../protocol';

/** `allow execute_command when command "npm test" (project#1)`: a rule in one line, for the trust card and /policy. */
export function describeRule(rule: LoadedRule): string {
  const when: string[] = [];
  const w = rule.when;
  if (w?.path !== undefined) when.push(`path ${JSON.stringify(w.path)}`);
  if (w?.command !== undefined) when.push(`command ${JSON.stringify(w.command)}`);
  if (w?.domain !== undefined) when.push(`domain ${JSON.stringify(w.domain)}`);
  if (w?.args) when.push(`args ${JSON.stringify(w.args)}`);
  if (w?.regex) when.push(`regex ${JSON.stringify(w.regex)}`);
  const scope =
    when.length > 0
      ? ` when ${when.join(' and ')}`
      : rule.tool === '*'
        ? ' (every tool, every call)'
        : ' (every call)';
  return `${rule.decision} ${rule.tool}${scope} — ${rule.id}`;
}

/** The trust card's lines: held rules first, then held settings. */
export function looseningItems(
  rules: readonly LoadedRule[],
  settings: readonly HeldSetting[],
  configFile: string,
): LooseningItem[] {
  return [
    ...rules.map(
      (rule): LooseningItem => ({ kind: 'rule', file: rule.file ?? '', text: describeRule(rule) }),
    ),
    ...settings.map((s): LooseningItem => ({ kind: 'setting', file: configFile, text: s.label })),
  ];
}
