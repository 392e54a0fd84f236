import { diffLines } from 'diff';
import { lazySchema } from '../../lazy-zod';
import { describeFsError, formatBytes, shownPath, absoluteFromRoot } from './fs-common';
import { READ_MAX_BYTES } from './read-file';
import { type FencedPath, type FileRead, readFileSafely } from './safe-fs';
import { writeFileSafelyNow } from './safe-fs-now';
import { encodeKeepingUnchanged, firstNul, looksBinary, shownText } from './text-bytes';
import { defineTool, fencedPath, type PreImage } from '../types';

/** The tool's name, for the composition root (`/init` writes AGENTS.md through the gate with it). */
export const WRITE_FILE_TOOL = 'write_file';

/** Largest content one write_file call accepts (UTF-8 bytes). */
export const WRITE_MAX_BYTES = 5 * 1024 * 1024;

/** The file operations write_file uses; tests swap them (e.g. a rename that fails). */
export type WriteFileEffects = {
  /** Reads the current file through a verified descriptor (safe-fs.ts). */
  read(target: FencedPath, maxBytes: number): Promise<FileRead>;
  /** Replaces or creates the file atomically inside the verified folder; `mode` kept from the old file. */
  write(target: FencedPath & { root: string }, bytes: Buffer, mode?: number): Promise<void>;
};

/**
 * Synchronous for small files (safe-fs.ts reads, safe-fs-now.ts writes): an approved write reaches
 * the disk before the UI's render of the closing card runs, not after it.
 */
export const defaultWriteFileEffects: WriteFileEffects = {
  read: readFileSafely,
  write: (target, bytes, mode) => writeFileSafelyNow(target, bytes, mode),
};

const schema = lazySchema((z) =>
  z.strictObject({
    path: z.string(),
    content: z.string(),
    replace_binary: z.boolean().optional().describe('Replace a binary file on purpose (a high-risk card).'),
  }),
);

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
 * Contract: never throws; on any failure the original file is unchanged and no temp file is left;
 * it writes only inside the folder the fence approved (safe-fs.ts); bytes of lines the diff leaves
 * unchanged stay as they were (text-bytes.ts); a binary file is replaced only with `replace_binary`;
 * after a person's approval it replaces only the content they saw (`ctx.preImageMatches`).
 */
export function createWriteFileTool(effects: WriteFileEffects = defaultWriteFileEffects) {
  return defineTool({
    name: WRITE_FILE_TOOL,
    autoEditable: true,
    summary: (args) => args.path,
    kind: 'write',
    hookAlias: { name: 'Write', input: (a, root) => ({ file_path: absoluteFromRoot(root, a.path) }) },
    guarded: { paths: ['path'], content: 'content', maxBytes: { field: 'content', bytes: WRITE_MAX_BYTES } },
    reversible: true,
    changesFiles: true,
    checksPreImage: true,
    description: 'Create a file or replace all of it (max 5 MB).',
    schema,
    async execute(args, ctx) {
      const bytes = Buffer.byteLength(args.content, 'utf8');
      if (bytes > WRITE_MAX_BYTES) {
        return {
          ok: false,
          error: `content is ${formatBytes(bytes)}; write_file takes at most 5 MB per file. Split it into smaller files.`,
        };
      }
      const first = fencedPath(ctx, 'path', args.path);
      if (!first.ok) return { ok: false, error: first.reason };
      const shown = shownPath(first.relative);
      try {
        const existing = await effects.read({ path: first.path, root: ctx.root }, READ_MAX_BYTES);
        // The person approved a diff of the file as it was then (or of a new file): content put there
        // since — by a command still running, another program — is not replaced unseen.
        if (ctx.preImageMatches && !ctx.preImageMatches(existing)) return changedSinceCard(shown);
        if (existing.kind === 'not-file')
          return {
            ok: false,
            error:
              existing.what === 'dir'
                ? `${shown} is a directory; give a file path.`
                : `${shown} is not a regular file.`,
          };
        if (existing.kind === 'too-large') {
          return {
            ok: false,
            error: `${shown} is ${formatBytes(existing.size)}; write_file does not replace files over 10 MB.`,
          };
        }
        const plan = planBytes(existing, args.content, args.replace_binary === true, shown);
        if (!plan.ok) return { ok: false, error: plan.error };
        if (plan.unchanged) {
          return {
            ok: true,
            output: `${shown} already has this content; nothing written.`,
            data: { path: first.relative, isNew: false, added: 0, removed: 0, unchanged: true },
          };
        }
        // Re-check: a path that now resolves elsewhere is refused before anything is recorded.
        const second = ctx.fence.check(args.path);
        if (!second.ok) return { ok: false, error: second.reason };
        if (second.path !== first.path)
          return {
            ok: false,
            error: `${shown} changed on disk while writing (now resolves to ${second.path}); nothing written.`,
          };
        const pre: PreImage =
          existing.kind === 'file'
            ? { kind: 'file', bytes: existing.bytes, mode: existing.mode }
            : { kind: 'absent' };
        try {
          await ctx.recordPreImage?.(second.path, pre);
        } catch (err) {
          return {
            ok: false,
            error: `Could not record ${shown}'s previous content for undo, so nothing was written: ${describeFsError(err, shown)}`,
          };
        }
        try {
          await effects.write(
            { path: second.path, root: ctx.root },
            plan.bytes,
            existing.kind === 'file' ? existing.mode : undefined,
          );
        } catch (err) {
          return {
            ok: false,
            error: `Could not write ${shown}; the original is unchanged. ${describeFsError(err, shown)}`,
          };
        }
        const { added, removed } = plan.binary
          ? { added: countLines(args.content), removed: 0 }
          : countLineChanges(plan.before, args.content);
        const isNew = existing.kind === 'absent';
        const summary = plan.binary
          ? `Replaced the binary file ${shown} with text (${added} lines).`
          : isNew
            ? `Created ${shown} (${added} lines).`
            : `Updated ${shown}: +${added} −${removed} lines.${plan.keptRawLines ? ` ${plan.keptRawLines} unchanged lines that are not UTF-8 kept their bytes.` : ''}`;
        return {
          ok: true,
          output: summary,
          data: {
            path: first.relative,
            isNew,
            added,
            removed,
            bytes,
            ...(plan.binary ? { replacedBinary: true } : {}),
          },
        };
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
    },
  });
}

/** The refusal when the file is not the one the card showed (the gate asks again with the new diff). */
export function changedSinceCard(shown: string, edit = false): { ok: false; error: string } {
  return {
    ok: false,
    error: `file_changed: ${shown} changed since you approved (on disk, after the card was shown); nothing was written.${edit ? ' Read it again and make a new edit.' : ''}`,
  };
}

type BytePlan =
  | { ok: true; unchanged: true }
  | { ok: true; unchanged: false; bytes: Buffer; before: string; binary: boolean; keptRawLines: number }
  | { ok: false; error: string };

/** What to write over `existing`: refuses a binary file without `replaceBinary` and text whose hidden bytes would change. */
function planBytes(existing: FileRead, content: string, replaceBinary: boolean, shown: string): BytePlan {
  if (existing.kind !== 'file')
    return {
      ok: true,
      unchanged: false,
      bytes: Buffer.from(content, 'utf8'),
      before: '',
      binary: false,
      keptRawLines: 0,
    };
  if (looksBinary(existing.bytes)) {
    if (!replaceBinary) {
      return {
        ok: false,
        error: `${shown} is a binary file (${formatBytes(existing.size)}, a NUL byte at offset ${firstNul(existing.bytes)}); write_file would replace it with text. Nothing was written. If that is really intended, call write_file again with replace_binary: true — the person then sees a high-risk card that says so.`,
      };
    }
    return {
      ok: true,
      unchanged: false,
      bytes: Buffer.from(content, 'utf8'),
      before: '',
      binary: true,
      keptRawLines: 0,
    };
  }
  const before = shownText(existing.bytes);
  if (before === content) return { ok: true, unchanged: true };
  const encoded = encodeKeepingUnchanged(existing.bytes, content);
  if (!encoded.ok)
    return {
      ok: false,
      error: `${shown} ${encoded.reason}. Nothing was written; change that line with a command (e.g. sed) or convert the file to UTF-8 first.`,
    };
  return {
    ok: true,
    unchanged: false,
    bytes: encoded.bytes,
    before,
    binary: false,
    keptRawLines: encoded.keptRawLines,
  };
}
