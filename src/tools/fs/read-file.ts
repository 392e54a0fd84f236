import { isUtf8 } from 'node:buffer';
import { lazySchema } from '../../lazy-zod';
import { describeFsError, formatBytes, shownPath, absoluteFromRoot } from './fs-common';
import { type FencedPath, type FileRead, readFileSafely } from './safe-fs';
import { firstNul, looksBinary } from './text-bytes';
import { defineTool, fencedPath } from '../types';

/** The tool's name, for the composition root (a person's `@path` attachment reads through it). */
export const READ_FILE_TOOL = 'read_file';

/** Most lines one read_file call returns. */
export const READ_MAX_LINES = 2000;
/** Larger files are refused: the model should grep them instead. */
export const READ_MAX_BYTES = 10 * 1024 * 1024;
// Keeps one call's output reasonable even when every line is long.
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 200_000;

/** The file operation read_file uses; tests swap it. */
export type ReadFileEffects = {
  /** Reads the fenced file through a verified descriptor (see safe-fs.ts). */
  read(target: FencedPath, maxBytes: number): Promise<FileRead>;
};

export const defaultReadFileEffects: ReadFileEffects = { read: readFileSafely };

const schema = lazySchema((z) =>
  z.strictObject({
    path: z.string(),
    offset: z.number().int().min(1).max(10_000_000).optional().describe('1-based'),
    limit: z.number().int().min(1).max(READ_MAX_LINES).optional(),
  }),
);

/**
 * read_file: numbered lines of a text file, 2000 at most per call, with the offset to continue.
 * Contract: never throws; directories, binary files (a NUL byte anywhere) and files over 10 MB are
 * refused with a reason; what it returns is, provably, the fenced file (safe-fs.ts).
 */
export function createReadFileTool(effects: ReadFileEffects = defaultReadFileEffects) {
  return defineTool({
    name: READ_FILE_TOOL,
    summary: (args) => args.path,
    kind: 'read',
    hookAlias: { name: 'Read', input: (a, root) => ({ file_path: absoluteFromRoot(root, a.path) }) },
    guarded: { paths: ['path'] },
    description: 'Read a text file as numbered lines, 2000 per call (continue at the offset it gives).',
    schema,
    async execute(args, ctx) {
      const verdict = fencedPath(ctx, 'path', args.path);
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      const shown = shownPath(verdict.relative);
      let found: FileRead;
      try {
        found = await effects.read({ path: verdict.path, root: ctx.root }, READ_MAX_BYTES);
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
      if (found.kind === 'absent')
        return { ok: false, error: `${shown} does not exist. Use glob_files or list_dir to find the file.` };
      if (found.kind === 'not-file') {
        return {
          ok: false,
          error:
            found.what === 'dir'
              ? `${shown} is a directory; use list_dir to see what it holds.`
              : `${shown} is not a regular file.`,
        };
      }
      if (found.kind === 'too-large') return { ok: false, error: tooLarge(shown, found.size) };
      const buffer = found.bytes;
      if (looksBinary(buffer)) {
        return {
          ok: false,
          error: `${shown} looks binary (a NUL byte at offset ${firstNul(buffer)}); read_file reads text only.`,
        };
      }
      const result = numberLines(
        buffer.toString('utf8'),
        shown,
        verdict.relative,
        args.offset ?? 1,
        args.limit ?? READ_MAX_LINES,
      );
      if (!result.ok || isUtf8(buffer)) return result;
      // The model must know why a line shows U+FFFD before it tries to rewrite that line.
      return {
        ...result,
        output: `${result.output}\n[${shown} is not valid UTF-8: undecodable bytes show as \uFFFD. write_file keeps them on lines you leave unchanged, but refuses a changed line holding \uFFFD.]`,
      };
    },
  });
}

function tooLarge(shown: string, size: number): string {
  return `${shown} is ${formatBytes(size)}, over read_file's 10 MB limit; use grep_code to find the lines you need.`;
}

/**
 * The lines as `cat -n` numbers them (the number, a tab, the line), and nothing else outside ASCII:
 * a file of ASCII text stays one byte a character in memory — its result, the history's copy and the
 * request's (a single `→` would double all three, for every file a burst of reads holds).
 */
function numberLines(text: string, shown: string, relative: string, offset: number, limit: number) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  if (total === 0)
    return { ok: true as const, output: `(${shown} is empty)`, data: { path: relative, totalLines: 0 } };
  if (offset > total) {
    return { ok: false as const, error: `offset ${offset} is past the end: ${shown} has ${total} lines.` };
  }
  const out: string[] = [];
  let chars = 0;
  let end = offset - 1;
  while (end < total && end - offset + 1 < limit && chars < MAX_OUTPUT_CHARS) {
    const line = lines[end] as string;
    const clipped =
      line.length > MAX_LINE_CHARS
        ? `${line.slice(0, MAX_LINE_CHARS)}... [line cut at ${MAX_LINE_CHARS} chars]`
        : line;
    const numbered = `${String(end + 1).padStart(6)}\t${clipped}`;
    out.push(numbered);
    chars += numbered.length + 1;
    end++;
  }
  const remaining = total - end;
  if (remaining > 0) {
    out.push(`[lines ${offset}-${end} of ${total}; ${remaining} more, continue with offset ${end + 1}]`);
  }
  const data = {
    path: relative,
    totalLines: total,
    startLine: offset,
    endLine: end,
    remaining,
    ...(remaining > 0 ? { nextOffset: end + 1 } : {}),
  };
  return { ok: true as const, output: out.join('\n'), data };
}
