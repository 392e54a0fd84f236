/**
 * The README's keys table, written from the keymap: one row per place, each key with its help line,
 * so the README cannot drift from the keys the app takes (test/components/keys/readme-keys.test.ts
 * compares; `npx tsx scripts/readme-keys.ts` rewrites the README's table).
 */
import {
  APP_KEYS,
  AUDIT_DETAIL_KEYS,
  AUDIT_KEYS,
  cardHelp,
  COMPACT_KEYS,
  escalationHelp,
  GRANT_KEYS,
  GRANTS_KEYS,
  type HelpRow,
  helpRows,
  type KeyRow,
  MODE_CONFIRM_KEYS,
  PROMPT_KEYS,
  questionHelp,
  REJECT_KEYS,
  REVIEW_KEYS,
  SAVE_RULE_KEYS,
  SUGGESTION_KEYS,
  TRUST_KEYS,
} from './keymap';

/** Where the table starts and ends in README.md. */
export const README_KEYS_BEGIN =
  '<!-- keys:begin — written from components/keys/keymap.ts by `npx tsx scripts/readme-keys.ts`; do not edit by hand -->';
export const README_KEYS_END = '<!-- keys:end -->';

/** A table's rows, less those another row of it already shows (`↓` after `↑/↓`). */
function rows(table: Record<string, KeyRow>): HelpRow[] {
  const out: HelpRow[] = [];
  for (const row of helpRows(Object.values(table))) {
    // `↓` after `↑/↓`, `→` after `←→`: the earlier row shows it already.
    const arrow = /^[←→↑↓]$/.test(row.keys);
    const shown = out.some(
      (r) => r.keys.split(/[/ ]+/).includes(row.keys) || (arrow && r.keys.includes(row.keys)),
    );
    if (!shown) out.push(row);
  }
  return out;
}

/** The card's rows for every kind of tool card, once each. */
function cardRows(): HelpRow[] {
  const out: HelpRow[] = [];
  for (const kind of ['diff', 'command', 'json'] as const)
    for (const row of cardHelp(kind)) if (!out.some((r) => r.keys === row.keys)) out.push(row);
  return out;
}

const SECTIONS: [string, () => HelpRow[]][] = [
  ['approval card', cardRows],
  [
    'plan card',
    () => cardHelp('plan').filter((r) => !cardRows().some((c) => c.keys === r.keys && c.does === r.does)),
  ],
  ['approve-all (`a`)', () => rows(GRANT_KEYS)],
  ["don't ask again (`A`)", () => rows(SAVE_RULE_KEYS)],
  ['reject reason (`n`)', () => rows(REJECT_KEYS)],
  ['question card', questionHelp],
  ['escalation card', escalationHelp],
  ['outside the drawer', () => rows(APP_KEYS)],
  ['prompt', () => rows(PROMPT_KEYS)],
  ['into auto mode', () => rows(MODE_CONFIRM_KEYS)],
  ['trust card', () => rows(TRUST_KEYS)],
  ['turn review card', () => rows(REVIEW_KEYS)],
  ['rule / preference offer', () => rows(SUGGESTION_KEYS)],
  ['/compact card', () => rows(COMPACT_KEYS)],
  ['/grants', () => rows(GRANTS_KEYS)],
  ['audit browser', () => rows(AUDIT_KEYS)],
  ['audit record', () => rows(AUDIT_DETAIL_KEYS)],
];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table as Markdown, between its markers. */
export function readmeKeysTable(): string {
  const lines = ['| where | keys |', '|---|---|'];
  for (const [where, make] of SECTIONS) {
    const list = make();
    if (list.length === 0) continue;
    lines.push(`| ${cell(where)} | ${list.map((r) => `\`${cell(r.keys)}\` ${cell(r.does)}`).join(' · ')} |`);
  }
  return [README_KEYS_BEGIN, ...lines, README_KEYS_END].join('\n');
}

/** The README with its keys table replaced; undefined when the markers are missing. */
export function withKeysTable(readme: string): string | undefined {
  const begin = readme.indexOf(README_KEYS_BEGIN);
  const end = readme.indexOf(README_KEYS_END);
  if (begin < 0 || end < begin) return undefined;
  return `${readme.slice(0, begin)}${readmeKeysTable()}${readme.slice(end + README_KEYS_END.length)}`;
}
