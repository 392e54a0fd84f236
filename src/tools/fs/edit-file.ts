import type { z } from 'zod';
import { lazySchema } from '../../lazy-zod';
import { CREDENTIAL_EDIT, isCredentialPath } from '../../policy/credential-files';
import { describeFsError, formatBytes, shownPath, absoluteFromRoot } from './fs-common';
import { applyStringEdits } from './string-edits';
import { encodeKeepingUnchanged, looksBinary, shownText } from './text-bytes';
import {
  changedSinceCard,
  countLineChanges,
  defaultWriteFileEffects,
  type WriteFileEffects,
} from './write-file';
import { defineTool, fencedPath } from '../types';

/** Largest file edit_file changes: what the approval card can still show as a diff (gate/preview.ts). */
export const EDIT_MAX_BYTES = 5 * 1024 * 1024;
/** Most edits in one call; more is a rewrite (write_file) or several calls. */
export const EDIT_MAX_EDITS = 50;

const schema = lazySchema((z) =>
  z.strictObject({
    path: z.string(),
    edits: z
      .array(
        z.strictObject({
          old_string: z.string().max(EDIT_MAX_BYTES),
          new_string: z.string().max(EDIT_MAX_BYTES),
          replace_all: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(EDIT_MAX_EDITS),
  }),
);

type EditArgs = z.infer<typeof schema>;

/** The file's text after the edits, or why they cannot apply (the same words at the card and at run time). */
function editText(
  args: EditArgs,
  before: string,
  shown: string,
): { ok: true; after: string } | { ok: false; error: string } {
  const applied = applyStringEdits(before, args.edits);
  if (!applied.ok) return { ok: false, error: `${shown}: ${applied.error} Nothing was written.` };
  const bytes = Buffer.byteLength(applied.after, 'utf8');
  if (bytes > EDIT_MAX_BYTES)
    return { ok: false, error: `${shown} would be ${formatBytes(bytes)}; edit_file keeps files under 5 MB.` };
  return { ok: true, after: applied.after };
}

/**
 * edit_file: exact string replacements in an existing text file, applied in order, all or nothing,
 * written atomically like write_file (temp file, fsync, rename inside the verified folder).
 * Contract: never throws; on any failure the file is unchanged; after a person's approval it edits
 * only the content they saw (`ctx.preImageMatches`), never a file that changed since.
 */
export function createEditFileTool(effects: WriteFileEffects = defaultWriteFileEffects) {
  return defineTool({
    name: 'edit_file',
    autoEditable: true,
    summary: (args) => `${args.path} (${args.edits.length} edit${args.edits.length === 1 ? '' : 's'})`,
    kind: 'write',
    hookAlias: {
      name: 'Edit',
      // One edit reads as Claude Code's Edit; several keep `edits`, as its MultiEdit has them.
      input: (a, root) => ({
        file_path: absoluteFromRoot(root, a.path),
        ...(a.edits.length === 1 ? a.edits[0] : {}),
      }),
    },
    checksPreImage: true,
    guarded: { paths: ['path'] },
    reversible: true,
    changesFiles: true,
    description: 'Replace exact, unique text in a file (edits in order, all or none).',
    schema,
    editText: (args, before) => editText(args, before, args.path),
    async execute(args, ctx) {
      const first = fencedPath(ctx, 'path', args.path);
      if (!first.ok) return { ok: false, error: first.reason };
      const shown = shownPath(first.relative);
      // By name, before reading: whether an edit applies would tell what a credential file holds.
      if (isCredentialPath(first.relative))
        return {
          ok: false,
          error: `${shown} is a credential file; edit_file does not change it. ${CREDENTIAL_EDIT}`,
        };
      try {
        const existing = await effects.read({ path: first.path, root: ctx.root }, EDIT_MAX_BYTES);
        // The person approved a diff of the file as it was then; a file changed since is not edited blind.
        if (ctx.preImageMatches && !ctx.preImageMatches(existing)) return changedSinceCard(shown, true);
        if (existing.kind === 'absent')
          return { ok: false, error: `${shown} does not exist; create it with write_file.` };
        if (existing.kind === 'not-file')
          return {
            ok: false,
            error: existing.what === 'dir' ? `${shown} is a directory.` : `${shown} is not a regular file.`,
          };
        if (existing.kind === 'too-large')
          return {
            ok: false,
            error: `${shown} is ${formatBytes(existing.size)}; edit_file changes files up to 5 MB.`,
          };
        if (looksBinary(existing.bytes))
          return { ok: false, error: `${shown} is a binary file; edit_file changes text files only.` };
        const before = shownText(existing.bytes);
        const edited = editText(args, before, shown);
        if (!edited.ok) return edited;
        if (edited.after === before)
          return {
            ok: true,
            output: `The edits leave ${shown} as it was; nothing written.`,
            data: { path: first.relative, unchanged: true },
          };
        const encoded = encodeKeepingUnchanged(existing.bytes, edited.after);
        if (!encoded.ok) return { ok: false, error: `${shown} ${encoded.reason}. Nothing was written.` };
        // Re-check: a path that now resolves elsewhere is refused before anything is recorded.
        const second = ctx.fence.check(args.path);
        if (!second.ok) return { ok: false, error: second.reason };
        if (second.path !== first.path)
          return { ok: false, error: `${shown} changed on disk while editing; nothing written.` };
        try {
          await ctx.recordPreImage?.(second.path, {
            kind: 'file',
            bytes: existing.bytes,
            mode: existing.mode,
          });
        } catch (err) {
          return {
            ok: false,
            error: `Could not record ${shown}'s previous content for undo, so nothing was written: ${describeFsError(err, shown)}`,
          };
        }
        try {
          await effects.write({ path: second.path, root: ctx.root }, encoded.bytes, existing.mode);
        } catch (err) {
          return {
            ok: false,
            error: `Could not write ${shown}; the original is unchanged. ${describeFsError(err, shown)}`,
          };
        }
        const { added, removed } = countLineChanges(before, edited.after);
        const count = args.edits.length;
        return {
          ok: true,
          output: `Edited ${shown}: ${count} edit${count === 1 ? '' : 's'}, +${added} −${removed} lines.`,
          data: { path: first.relative, edits: count, added, removed },
        };
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
    },
  });
}
