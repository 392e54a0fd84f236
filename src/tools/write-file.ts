import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { diffLines } from 'diff';
import { z } from 'zod';
import { describeFsError, formatBytes, type PathInfo, pathInfo, shownPath } from './fs-common';
import { READ_MAX_BYTES } from './read-file';
import { defineTool } from './types';

/** Largest content one write_file call accepts (UTF-8 bytes). */
export const WRITE_MAX_BYTES = 5 * 1024 * 1024;

/** The file operations write_file uses; tests swap them (e.g. a rename that fails). */
export type WriteFileEffects = {
  info(path: string): Promise<PathInfo | undefined>;
  readFile(path: string): Promise<Buffer>;
  mkdirp(path: string): Promise<void>;
  /** Creates `path` exclusively, writes and flushes it; `mode` set when given. */
  writeNew(path: string, content: string, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
};

export const defaultWriteFileEffects: WriteFileEffects = {
  info: pathInfo,
  readFile: (path) => readFile(path),
  mkdirp: async (path) => {
    await mkdir(path, { recursive: true });
  },
  async writeNew(path, content, mode) {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(path, mode);
  },
  rename,
  remove: (path) => rm(path, { force: true }),
};

const schema = z.strictObject({
  path: z.string(),
  content: z.string(),
});

/** Lines added and removed between two texts; falls back to whole-file counts when a diff would be too costly. */
export function countLineChanges(before: string, after: string): { added: number; removed: number } {
  const changes = diffLines(before, after, { timeout: 2000 });
  if (!changes) return { added: countLines(after), removed: countLines(before) };
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) added += change.count;
    if (change.removed) removed += change.count;
  }
  return { added, removed };
}

function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/**
 * write_file: replaces or creates a whole file atomically (temp file in the same folder, then rename).
 * Contract: never throws; on any failure the original file is unchanged and no temp file is left.
 */
export function createWriteFileTool(effects: WriteFileEffects = defaultWriteFileEffects) {
  return defineTool({
    name: 'write_file',
    kind: 'write',
    guarded: { paths: ['path'], maxBytes: { field: 'content', bytes: WRITE_MAX_BYTES } },
    reversible: true,
    description:
      'Create a file or replace its whole content (max 5 MB), creating folders. Read an existing file first; send the complete new text.',
    schema,
    async execute(args, ctx) {
      const bytes = Buffer.byteLength(args.content, 'utf8');
      if (bytes > WRITE_MAX_BYTES) {
        return { ok: false, error: `content is ${formatBytes(bytes)}; write_file takes at most 5 MB per file. Split it into smaller files.` };
      }
      const first = ctx.fence.check(args.path);
      if (!first.ok) return { ok: false, error: first.reason };
      const shown = shownPath(first.relative);
      try {
        const existing = await effects.info(first.path);
        if (existing && existing.kind === 'dir') return { ok: false, error: `${shown} is a directory; give a file path.` };
        if (existing && existing.kind !== 'file') return { ok: false, error: `${shown} is not a regular file (${existing.kind}).` };
        if (existing && existing.size > READ_MAX_BYTES) {
          return { ok: false, error: `${shown} is ${formatBytes(existing.size)}; write_file does not replace files over 10 MB.` };
        }
        const before = existing ? (await effects.readFile(first.path)).toString('utf8') : '';
        if (existing && before === args.content) {
          return { ok: true, output: `${shown} already has this content; nothing written.`, data: { path: first.relative, isNew: false, added: 0, removed: 0, unchanged: true } };
        }
        if (!existing) await effects.mkdirp(dirname(first.path));
        // Re-check after mkdir: a folder swapped for a link meanwhile must not redirect the write.
        const second = ctx.fence.check(args.path);
        if (!second.ok) return { ok: false, error: second.reason };
        if (second.path !== first.path) return { ok: false, error: `${shown} changed on disk while writing (now resolves to ${second.path}); nothing written.` };
        try {
          await ctx.recordPreImage?.(second.path);
        } catch (err) {
          return { ok: false, error: `Could not record ${shown}'s previous content for undo, so nothing was written: ${describeFsError(err, shown)}` };
        }
        const failure = await replaceAtomically(effects, second.path, args.content, existing?.mode);
        if (failure) return { ok: false, error: `Could not write ${shown}; the original is unchanged. ${describeFsError(failure, shown)}` };
        const { added, removed } = countLineChanges(before, args.content);
        const summary = existing ? `Updated ${shown}: +${added} −${removed} lines.` : `Created ${shown} (${added} lines).`;
        return { ok: true, output: summary, data: { path: first.relative, isNew: !existing, added, removed, bytes } };
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
    },
  });
}

/** Writes a sibling temp file and renames it over `target`; returns the error, if any, after removing the temp file. */
async function replaceAtomically(effects: WriteFileEffects, target: string, content: string, mode: number | undefined): Promise<unknown> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.warden-tmp`);
  try {
    await effects.writeNew(temp, content, mode);
    await effects.rename(temp, target);
    return undefined;
  } catch (err) {
    await effects.remove(temp).catch(() => undefined);
    return err;
  }
}
