/**
 * One custom slash command's Markdown file, in the shape Claude Code, Gemini CLI and others use: an
 * optional front matter between `---` lines (`description:` and `argument-hint:` are read; keys other
 * agents use, such as `allowed-tools` or `model`, are said to be ignored — the gate decides every
 * call), then the prompt, where `$ARGUMENTS` (and `$1`…`$9`) take what follows the command's name.
 */
import { COMMAND_NAME } from '../policy/read-commands';

export { COMMAND_NAME };

/** A command file as parsed: what /help shows, and the prompt it sends. */
export type CommandFile = {
  description?: string;
  argumentHint?: string;
  body: string;
  /** Front-matter keys warden does not use, each with why (said once, the command still loads). */
  ignored: string[];
};

export type ParsedCommandFile = { ok: true; file: CommandFile } | { ok: false; error: string };

/** The front-matter keys of other agents that warden reads but does not use, with why. */
const NOT_USED: Record<string, string> = {
  'allowed-tools': 'warden does not let a command file allow tools: the gate decides every call',
  model: 'a command runs with the session’s model (/model switches it)',
  'disable-model-invocation': 'the model cannot run slash commands in warden anyway',
};

const MAX_DESCRIPTION = 300;

/**
 * Parses a command file's text. Contract: never throws; a front matter that does not close, a line in
 * it that is not `key: value`, a description on more than one line or a file with no prompt is an
 * error naming the line.
 */
export function parseCommandFile(text: string): ParsedCommandFile {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let body = source;
  const file: CommandFile = { body: '', ignored: [] };
  if (/^---[ \t]*\n/.test(source)) {
    const lines = source.split('\n');
    const end = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
    if (end < 0)
      return { ok: false, error: 'the front matter opened with --- on line 1 is never closed with ---' };
    for (let i = 1; i < end; i++) {
      const line = lines[i] ?? '';
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      const m = /^([A-Za-z][\w-]*)[ \t]*:(.*)$/.exec(line);
      if (!m)
        return {
          ok: false,
          error: `front matter line ${i + 1} is not "key: value": ${JSON.stringify(line.slice(0, 60))}`,
        };
      const key = (m[1] ?? '').toLowerCase();
      const value = unquote((m[2] ?? '').trim());
      if (!value.ok) return { ok: false, error: `front matter line ${i + 1}: ${value.error}` };
      if (key === 'description' || key === 'argument-hint') {
        if (/^[|>][-+]?$/.test(value.text))
          return { ok: false, error: `front matter line ${i + 1}: write the ${key} on one line` };
        if (value.text.length > MAX_DESCRIPTION)
          return {
            ok: false,
            error: `front matter line ${i + 1}: the ${key} is longer than ${MAX_DESCRIPTION} characters`,
          };
        if (key === 'description') file.description = value.text;
        else file.argumentHint = value.text;
      } else file.ignored.push(`${key}: ${NOT_USED[key] ?? 'not a key warden reads'}`);
    }
    body = lines.slice(end + 1).join('\n');
  }
  file.body = body.replace(/^\n+/, '').replace(/\s+$/, '');
  if (!file.body) return { ok: false, error: 'the file has no prompt (nothing after its front matter)' };
  return { ok: true, file };
}

/** A front-matter value without its quotes; a quote that does not close is an error. */
function unquote(raw: string): { ok: true; text: string } | { ok: false; error: string } {
  const q = raw.charAt(0);
  if (q !== '"' && q !== "'") return { ok: true, text: raw.replace(/[ \t]+#.*$/, '') };
  if (raw.length < 2 || raw.charAt(raw.length - 1) !== q)
    return { ok: false, error: `the ${q} quote does not close` };
  const inner = raw.slice(1, -1);
  return { ok: true, text: q === '"' ? inner.replace(/\\(["\\])/g, '$1') : inner.replace(/''/g, "'") };
}

/**
 * The prompt a command sends: `$ARGUMENTS` becomes everything after the name, `$1`…`$9` its words
 * (a quoted word keeps its spaces). A prompt that names neither gets the arguments appended on a line
 * of their own, so nothing typed is lost.
 */
export function expandCommand(body: string, args: string): string {
  const all = args.trim();
  const words = splitWords(all);
  const uses = /\$ARGUMENTS\b|\$[1-9]\b/.test(body);
  const text = body.replace(/\$ARGUMENTS\b|\$([1-9])\b/g, (_m, n: string | undefined) =>
    n === undefined ? all : (words[Number(n) - 1] ?? ''),
  );
  return uses || all === '' ? text : `${text}\n\nARGUMENTS: ${all}`;
}

function splitWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}
