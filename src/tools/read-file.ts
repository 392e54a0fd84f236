import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { describeFsError, formatBytes, type PathInfo, pathInfo, shownPath } from './fs-common';
import { defineTool } from './types';

/** Most lines one read_file call returns. */
export const READ_MAX_LINES = 2000;
/** Larger files are refused: the model should grep them instead. */
export const READ_MAX_BYTES = 10 * 1024 * 1024;
/** A NUL byte in this many leading bytes marks a file as binary. */
export const BINARY_SNIFF_BYTES = 8192;
// Keeps one call's output reasonable even when every line is long.
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 200_000;

/** The file operations read_file uses; tests swap them. */
export type ReadFileEffects = {
  info(path: string): Promise<PathInfo | undefined>;
  readFile(path: string): Promise<Buffer>;
};

export const defaultReadFileEffects: ReadFileEffects = {
  info: pathInfo,
  async readFile(path) {
    // O_NOFOLLOW: the fence resolved every link; a link that appeared since is not followed.
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  },
};

const schema = z.strictObject({
  path: z.string(),
  offset: z.number().int().min(1).max(10_000_000).optional().describe('1-based'),
  limit: z.number().int().min(1).max(READ_MAX_LINES).optional(),
});

/** True when the buffer holds a NUL byte in its first 8 KB. */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * read_file: numbered lines of a text file, 2000 at most per call, with the offset to continue.
 * Contract: never throws; directories, binary files and files over 10 MB are refused with a reason.
 */
export function createReadFileTool(effects: ReadFileEffects = defaultReadFileEffects) {
  return defineTool({
    name: 'read_file',
    kind: 'read',
    guarded: { paths: ['path'] },
    description:
      'Read a text file as numbered lines, 2000 per call (continue at the offset it gives). Not for folders (list_dir) or searching (grep_code).',
    schema,
    async execute(args, ctx) {
      const verdict = ctx.fence.check(args.path);
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      const shown = shownPath(verdict.relative);
      let buffer: Buffer;
      try {
        const info = await effects.info(verdict.path);
        if (!info) return { ok: false, error: `${shown} does not exist. Use glob_files or list_dir to find the file.` };
        if (info.kind === 'dir') return { ok: false, error: `${shown} is a directory; use list_dir to see what it holds.` };
        if (info.kind !== 'file') return { ok: false, error: `${shown} is not a regular file (${info.kind}).` };
        if (info.size > READ_MAX_BYTES) return { ok: false, error: tooLarge(shown, info.size) };
        buffer = await effects.readFile(verdict.path);
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
      if (buffer.length > READ_MAX_BYTES) return { ok: false, error: tooLarge(shown, buffer.length) };
      if (looksBinary(buffer)) {
        return { ok: false, error: `${shown} looks binary (NUL bytes in its first 8 KB); read_file reads text only.` };
      }
      return numberLines(buffer.toString('utf8'), shown, verdict.relative, args.offset ?? 1, args.limit ?? READ_MAX_LINES);
    },
  });
}

function tooLarge(shown: string, size: number): string {
  return `${shown} is ${formatBytes(size)}, over read_file's 10 MB limit; use grep_code to find the lines you need.`;
}

function numberLines(text: string, shown: string, relative: string, offset: number, limit: number) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  if (total === 0) return { ok: true as const, output: `(${shown} is empty)`, data: { path: relative, totalLines: 0 } };
  if (offset > total) {
    return { ok: false as const, error: `offset ${offset} is past the end: ${shown} has ${total} lines.` };
  }
  const out: string[] = [];
  let chars = 0;
  let end = offset - 1;
  while (end < total && end - offset + 1 < limit && chars < MAX_OUTPUT_CHARS) {
    const line = lines[end] as string;
    const clipped = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
    const numbered = `${String(end + 1).padStart(6)}→${clipped}`;
    out.push(numbered);
    chars += numbered.length + 1;
    end++;
  }
  const remaining = total - end;
  if (remaining > 0) {
    out.push(`[lines ${offset}–${end} of ${total}; ${remaining} more — continue with offset ${end + 1}]`);
  }
  const data = { path: relative, totalLines: total, startLine: offset, endLine: end, remaining, ...(remaining > 0 ? { nextOffset: end + 1 } : {}) };
  return { ok: true as const, output: out.join('\n'), data };
}
