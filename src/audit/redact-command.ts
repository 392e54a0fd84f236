/**
 * A command line redacted word by word, then as a whole. Quoting hides nothing: each word is
 * redacted as the text it is once bash has removed its quotes (`printf '%s\n' 'apiToken = …'`,
 * `echo "password: …"`, `$'…'`), and a word that held a secret is written back, single-quoted,
 * with the secret replaced, so the command around it stays readable. The whole line is then
 * redacted as text too, for what spans words (`--password x`, `API_TOKEN=x cmd`, a URL).
 */
import { mayHoldSecret, redactString } from './secret-patterns';
import { shellWords, splitWords } from './shell-words';

/** `text` as one single-quoted shell word (a `'` inside written as `'\''`). */
const singleQuoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** Words whose value cannot hold a secret any rule would find: no need to read them one by one. */
const PLAIN_WORD = /^[\w./:@%+,=~-]*$/;

/**
 * `command` with every secret replaced by `[REDACTED:<kind>]`, read as bash reads it.
 * Contract: never throws; idempotent; a line with nothing secret comes back as it is.
 */
export function redactCommand(command: string): string {
  // The writer asks twice for one record (is it clean? then the copy): the last answer is kept.
  if (command === lastCommand) return lastRedacted;
  const out = redactWords(command);
  lastCommand = command;
  lastRedacted = out;
  return out;
}

let lastCommand = '';
let lastRedacted = '';

function redactWords(command: string): string {
  // Nothing is quoted or escaped: its words are the text, and the text rules see them as they are.
  const whole = redactString(command);
  if (!/['"\\$`]/.test(command)) return whole;
  // Only a word that quoting or escapes change can hide anything from the line's own redaction: when
  // none of them, read as bash passes it (the stand-in splitter, cheap), could hold a secret for any
  // rule, the grammar need not read the line.
  if (!splitWords(command).some((w) => w.value !== command.slice(w.start, w.end) && mayHoldSecret(w.value)))
    return whole;
  // Innermost words first (the argument of a `printf` inside `"$(…)"`, the value of `NAME='…'`),
  // so the least is rewritten; a word holding one already rewritten is left to it.
  const words = shellWords(command).sort((a, b) => a.end - a.start - (b.end - b.start));
  const rewrites: { start: number; end: number; text: string }[] = [];
  for (const word of words) {
    if (rewrites.some((r) => r.start < word.end && word.start < r.end)) continue;
    const source = command.slice(word.start, word.end);
    if (PLAIN_WORD.test(source) || word.value === source) continue;
    const redacted = redactString(word.value);
    // What the word hides that the line's own redaction hid in place already needs no rewrite
    // (`-H "X-Api-Key: …"` keeps its quotes).
    if (redacted === word.value || hiddenParts(word.value, redacted).every((p) => !whole.includes(p)))
      continue;
    // `NAME='…'` stays an assignment: its name is kept outside the quotes.
    const name = /^[A-Za-z_]\w*=/.exec(source)?.[0];
    const text =
      name !== undefined && redacted.startsWith(name)
        ? name + singleQuoted(redacted.slice(name.length))
        : singleQuoted(redacted);
    rewrites.push({ start: word.start, end: word.end, text });
  }
  let out = '';
  let at = 0;
  for (const r of rewrites.sort((a, b) => a.start - b.start)) {
    out += command.slice(at, r.start) + r.text;
    at = r.end;
  }
  return at === 0 ? whole : redactString(out + command.slice(at));
}

const MARKS = /\[REDACTED:[^\]]*\]/;

/** The parts of `value` its redaction replaced (between what it kept). */
function hiddenParts(value: string, redacted: string): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const kept of redacted.split(MARKS)) {
    if (kept === '') continue;
    const found = value.indexOf(kept, at);
    if (found === -1) return [value];
    if (found > at) parts.push(value.slice(at, found));
    at = found + kept.length;
  }
  if (at < value.length) parts.push(value.slice(at));
  return parts;
}
