/**
 * `@path` in a prompt attaches that project file's content to the message the model gets. Each file
 * is read by the read tool THROUGH THE GATE, as the person ("you"): the path fence, the
 * credential-file rule (which asks: a person decides on a card, headless fails closed) and the audit
 * apply exactly as to the model's own reads. Nothing is attached silently that the gate would not
 * let the model read; what is not attached is said in a notice and told to the model.
 */
import { statSync } from 'node:fs';
import type { PathFence } from '../policy/guards/path-guard';
import type { ToolResultEnvelope } from '../protocol';
import { formatBytes } from '../text/bytes';

/** At most this many files are attached from one prompt. */
export const ATTACH_MAX_FILES = 10;
/** Characters of one file's (numbered) content attached; the rest is left for the model to read. */
export const ATTACH_MAX_CHARS = 60_000;

/** `@token`s at the start or after whitespace; trailing sentence punctuation is not part of the path. */
const MENTION = /(?:^|(?<=\s))@([^\s@]+)/g;

/** The paths a prompt names with `@`, in order, each once. Pure. */
export function mentionedPaths(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const path = (m[1] ?? '').replace(/[.,;:!?)\]'"]+$/, '');
    if (path) seen.add(path);
  }
  return [...seen];
}

export type AttachDeps = {
  fence: Pick<PathFence, 'check'>;
  /** Reads one file through the gate (read_file as the person). Contract: never rejects. */
  read: (path: string) => Promise<ToolResultEnvelope>;
  notice: (level: 'info' | 'warn', text: string) => void;
  /** Is this a regular file (after the fence resolved it)? Tests may swap it. */
  isFile?: (absolute: string) => boolean;
};

const isRegularFile = (absolute: string): boolean => {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
};

/**
 * The prompt as the model gets it: the person's text, then each `@path` that names a file inside
 * the project as an `<attached-file>` block. A mention that names no file (an e-mail handle, a
 * typo) stays plain text; one outside the project, refused, or failed is left out with a warning
 * notice and a line that tells the model so.
 * Contract: never rejects; without mentions the text comes back unchanged.
 */
export async function attachMentions(text: string, deps: AttachDeps): Promise<string> {
  const paths = mentionedPaths(text);
  if (paths.length === 0) return text;
  const blocks: string[] = [];
  let count = 0;
  for (const path of paths) {
    const verdict = deps.fence.check(path);
    if (!verdict.ok) {
      deps.notice('warn', `Not attached: @${path} (${verdict.reason})`);
      blocks.push(`(@${path} was not attached: it is outside the project.)`);
      continue;
    }
    if (!(deps.isFile ?? isRegularFile)(verdict.path)) continue;
    if (++count > ATTACH_MAX_FILES) {
      deps.notice('warn', `Not attached: @${path} (at most ${ATTACH_MAX_FILES} files per prompt).`);
      continue;
    }
    let result: ToolResultEnvelope;
    try {
      result = await deps.read(path);
    } catch (err) {
      result = { status: 'error', reason: (err as Error).message };
    }
    if (result.status !== 'executed') {
      const why = result.reason ?? result.status;
      deps.notice('warn', `Not attached: @${path} (${result.status}: ${why})`);
      blocks.push(
        `(@${path} was not attached: ${result.status}${result.by === 'user' ? ' by the person' : ''}.)`,
      );
      continue;
    }
    const output = result.output ?? '';
    const cut = output.length > ATTACH_MAX_CHARS;
    const body = cut ? output.slice(0, ATTACH_MAX_CHARS) : output;
    const tail = cut
      ? `\n[attachment cut at ${formatBytes(ATTACH_MAX_CHARS)} of ${formatBytes(output.length)}: read the rest with the read tool]`
      : '';
    deps.notice(
      'info',
      `Attached @${verdict.relative}${cut ? ` (first ${formatBytes(ATTACH_MAX_CHARS)})` : ''}.`,
    );
    blocks.push(`<attached-file path="${verdict.relative}">\n${body}${tail}\n</attached-file>`);
  }
  return blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`;
}
