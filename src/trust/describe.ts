import { dirname } from 'node:path';
import { parseCommandFile } from '../commands/command-file';
import type { CommandFolderRead } from '../policy/read-commands';
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

/**
 * How much a held rule lets through, broadest first: 0 every tool (`tool: "*"`) with no condition;
 * 1 every call of one tool, or every tool (or a tool glob) under a condition; 2 a condition that
 * starts with a wildcard (`command: "* --force"` runs any program, `path: "**"`, `domain: "*"`); 3 the rest.
 */
export function ruleBreadth(rule: LoadedRule): number {
  const w = rule.when;
  const unconditioned = !w || Object.values(w).every((v) => v === undefined);
  if (rule.tool === '*' && unconditioned) return 0;
  if (rule.tool.includes('*') || unconditioned) return 1;
  const leads = [w?.command, w?.path, w?.domain].filter((v): v is string => typeof v === 'string');
  if (leads.some((v) => !/^[\w.@+-]/.test(v.trim()))) return 2;
  return 3;
}

/**
 * The project's custom commands as trust items: each is a prompt the project would have the person
 * send with one word (`/deploy`), so it counts only once trusted. A file that does not parse runs
 * nothing and is no item.
 */
export function commandItems(commands: CommandFolderRead | undefined): LooseningItem[] {
  return (commands?.files ?? []).flatMap((f): LooseningItem[] => {
    if (f.kind !== 'ok') return [];
    const parsed = parseCommandFile(f.text);
    if (!parsed.ok) return [];
    const about = parsed.file.description ? ` — ${parsed.file.description}` : '';
    const size = Buffer.byteLength(parsed.file.body);
    // The folder is the file the card names: one entry however many commands it holds.
    return [
      { kind: 'command', file: dirname(f.file), text: `/${f.name}${about} (a prompt of ${size} bytes)` },
    ];
  });
}

/**
 * The trust card's lines, broadest first whatever the files' order: rules that let every tool or
 * every call through, then held settings, then custom commands, then narrower rules. `broad` marks the first kind.
 */
export function looseningItems(
  rules: readonly LoadedRule[],
  settings: readonly HeldSetting[],
  configFile: string,
  commands?: CommandFolderRead,
): LooseningItem[] {
  const ranked = rules
    .map((rule, order) => ({ rule, order, breadth: ruleBreadth(rule) }))
    .sort((a, b) => a.breadth - b.breadth || a.order - b.order);
  const item = ({ rule, breadth }: (typeof ranked)[number]): LooseningItem => ({
    kind: 'rule',
    file: rule.file ?? '',
    text: describeRule(rule),
    ...(breadth < 3 ? { broad: true } : {}),
  });
  return [
    ...ranked.filter((r) => r.breadth < 3).map(item),
    ...settings.map((s): LooseningItem => ({ kind: 'setting', file: configFile, text: s.label })),
    ...commandItems(commands),
    ...ranked.filter((r) => r.breadth === 3).map(item),
  ];
}
