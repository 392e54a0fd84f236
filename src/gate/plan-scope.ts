/**
 * The "plan's known steps" grant scope: what an approved plan named, read
 * conservatively. A command counts only when a step writes it in backticks and it is plain literal
 * words (`npm test`, not `npm test $X` or `a && b`); a path only when it is relative, inside the
 * project by its text (no `..`, no leading `/` or `~`), holds no glob or space, and looks like a
 * file or folder (`src/a.ts`, `docs/`, `README.md`). Everything else the plan says asks as before.
 */
import type { CallFacts } from '../policy/facts';
import { literalWords, partCoveredBy } from '../policy/rule-command';
import { hashArgs } from './hash';

/** What a plan names: exact commands (their words) and relative paths. */
export type PlanSteps = { commands: string[]; paths: string[] };

const BACKTICKED = /`([^`\n]{1,200})`/g;
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** A bare path in prose: a folder and a name with an extension (`src/app.ts`), or a dotted file name. */
const BARE_PATH =
  /(?<![\w./-])((?:[A-Za-z0-9_@-][\w@.-]*\/)+[\w@.-]*\.[A-Za-z0-9]{1,8}|[\w@-]+\.(?:md|ts|tsx|js|jsx|json|py|go|rs|txt|yml|yaml|toml|css|html))(?![\w/-])/g;
const MAX_ITEMS = 40;

/** The identity of a plan: its title and step texts, hashed. Equal plans have equal keys. */
export function planKeyOf(title: string, steps: readonly string[]): string {
  return hashArgs({ title, steps: [...steps] });
}

/** A relative path as written, if it may be a known step; undefined otherwise. */
function asPath(text: string): string | undefined {
  const path = text.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!path || path.startsWith('/') || path.startsWith('~') || !PLAIN_WORD.test(path)) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return path;
}

/** A single-part plain command as its words; undefined for anything a shell would read as more. */
function asCommand(text: string): string[] | undefined {
  const words = literalWords(text.trim());
  if (!words || words.length === 0 || !words.every((w) => PLAIN_WORD.test(w))) return undefined;
  return words;
}

/**
 * Reads the known steps of a plan: backticked commands and paths, and bare paths with a file
 * extension. A backticked single word with a `/` or an extension is a path, not a command.
 * Contract: pure; never throws; at most 40 of each.
 */
export function planSteps(steps: readonly string[]): PlanSteps {
  const commands = new Set<string>();
  const paths = new Set<string>();
  for (const step of steps) {
    for (const m of step.matchAll(BACKTICKED)) {
      const text = (m[1] ?? '').trim();
      const single = !/\s/.test(text);
      // A single path-like word is a path or nothing (`../x`, `/etc/passwd`); only `./script` may be a command.
      if (single && /[/.]/.test(text) && !text.startsWith('./')) {
        const path = asPath(text);
        if (path) paths.add(path);
        continue;
      }
      const words = asCommand(text);
      if (words) commands.add(words.join(' '));
    }
    const prose = step.replace(BACKTICKED, ' ');
    for (const m of prose.matchAll(BARE_PATH)) {
      const path = asPath(m[1] ?? '');
      if (path) paths.add(path);
    }
  }
  return { commands: [...commands].slice(0, MAX_ITEMS), paths: [...paths].slice(0, MAX_ITEMS) };
}

/**
 * Whether a call is one of the plan's known steps: a command whose every part is exactly one of
 * the listed commands (plain, writing nothing it does not name), or a write whose every path is
 * exactly a listed path. Reads never need it; MCP tools and anything else are never covered.
 */
export function planCovers(steps: PlanSteps, facts: CallFacts): boolean {
  if (facts.mcpServer) return false;
  if (facts.command) {
    if (facts.command.kind !== 'ok' || facts.command.parts.length === 0) return false;
    const patterns = steps.commands.map((c) => ({ tokens: c.split(' '), open: false }));
    return facts.command.parts.every((part) => patterns.some((p) => partCoveredBy(part, p)));
  }
  if (facts.kind !== 'write' || facts.paths.length === 0) return false;
  const listed = new Set(steps.paths);
  return facts.paths.every((p) => p.verdict.ok && listed.has(p.verdict.relative));
}
