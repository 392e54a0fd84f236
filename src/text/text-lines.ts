/**
 * A text's lines as the diffs count them: a final newline adds no line. `rawLines` keeps each
 * line's CR (a CRLF → LF rewrite is a change to compare); `withoutLineEndCR` derives the display lines
 * from them without splitting the text again.
 */

/** Lines split at `\n`, each keeping its CR; a final newline adds no line. */
export function rawLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * `raw` (= rawLines(text)) as `text.split(/\r?\n/)` counts them: one CR before each line's newline
 * is dropped; a CR with no newline after it (at the very end of the text) is kept. Returns `raw`
 * itself when the text holds no CR.
 */
export function withoutLineEndCR(raw: string[], text: string): string[] {
  if (!text.includes('\r')) return raw;
  const endsWithNewline = text.endsWith('\n');
  const out = new Array<string>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i] as string;
    const hasNewline = i < raw.length - 1 || endsWithNewline;
    out[i] = hasNewline && line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  return out;
}
