import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lazySchema } from '../../lazy-zod';
import { describeFsError, formatBytes, shownPath, absoluteFromRoot } from './fs-common';
import { ALWAYS_SKIPPED_DIRS, GitIgnore, IGNORE_FILE_MAX_BYTES } from './gitignore';
import { folderPath, openFolderSafely, readFileSafely } from './safe-fs';
import { defineTool, fencedPath } from '../types';

export const LIST_MAX_DEPTH = 5;
export const LIST_MAX_ENTRIES = 500;
// Counting what was left out stops here, so a huge tree cannot stall the call.
const COUNT_LIMIT = 50_000;

export type DirEntry = { name: string; type: 'file' | 'dir' | 'symlink' | 'other'; size?: number };

/** The file operations list_dir uses; tests swap them. */
export type ListDirEffects = {
  /** Entries of a folder, unsorted; sizes only when `withSizes`. */
  list(path: string, withSizes: boolean): Promise<DirEntry[]>;
  /** Text of a file, or undefined when it does not exist. */
  readText(path: string): Promise<string | undefined>;
};

export const defaultListDirEffects: ListDirEffects = {
  async list(path, withSizes) {
    // Through a verified descriptor (safe-fs.ts): a folder swapped for a link cannot list an outside folder.
    const handle = await openFolderSafely({ path });
    try {
      const base = folderPath(handle, path);
      const dirents = await readdir(base, { withFileTypes: true });
      return await Promise.all(
        dirents.map(async (d): Promise<DirEntry> => {
          const type = d.isFile()
            ? 'file'
            : d.isDirectory()
              ? 'dir'
              : d.isSymbolicLink()
                ? 'symlink'
                : 'other';
          if (!withSizes || type !== 'file') return { name: d.name, type };
          const size = await lstat(join(base, d.name)).then(
            (s) => s.size,
            () => undefined,
          );
          return { name: d.name, type, ...(size === undefined ? {} : { size }) };
        }),
      );
    } finally {
      await handle.close();
    }
  },
  readText: (path) =>
    readFileSafely({ path }, IGNORE_FILE_MAX_BYTES).then(
      (found) => (found.kind === 'file' ? found.bytes.toString('utf8') : undefined),
      () => undefined,
    ),
};

const schema = lazySchema((z) =>
  z.strictObject({
    path: z.string().optional(),
    depth: z.number().int().min(1).max(LIST_MAX_DEPTH).optional(),
    include_ignored: z.boolean().optional(),
  }),
);

type Listed = { path: string; type: DirEntry['type']; size?: number; depth: number };

/**
 * list_dir: a folder's entries (type, size), folders first then by name, to a depth, capped at 500.
 * Contract: never throws; symbolic links are listed, never followed.
 */
export function createListDirTool(effects: ListDirEffects = defaultListDirEffects) {
  return defineTool({
    name: 'list_dir',
    summary: (args) => args.path ?? '.',
    kind: 'read',
    hookAlias: { name: 'LS', input: (a, root) => ({ path: absoluteFromRoot(root, a.path ?? '.') }) },
    guarded: { paths: ['path'] },
    description:
      'List a folder (depth 1-5); hides .git, node_modules and ignored files unless include_ignored.',
    schema,
    async execute(args, ctx) {
      const verdict = fencedPath(ctx, 'path', args.path ?? '.');
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      const shown = shownPath(verdict.relative);
      const includeIgnored = args.include_ignored ?? false;
      const ignore = new GitIgnore();
      if (!includeIgnored) await loadAncestorIgnores(effects, ctx.root, verdict.relative, ignore);
      const state = { shown: [] as Listed[], omitted: 0, hidden: 0, counting: false, stopped: false };
      const walk = async (abs: string, rel: string, level: number): Promise<void> => {
        const entries = await effects.list(abs, !state.counting);
        if (
          !includeIgnored &&
          level > 1 &&
          entries.some((e) => e.name === '.gitignore' && e.type === 'file')
        ) {
          const text = await effects.readText(join(abs, '.gitignore'));
          if (text !== undefined) ignore.add(rel, text);
        }
        entries.sort(
          (a, b) =>
            Number(b.type === 'dir') - Number(a.type === 'dir') ||
            (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
        );
        for (const entry of entries) {
          const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
          const isDir = entry.type === 'dir';
          if (
            !includeIgnored &&
            ((isDir && ALWAYS_SKIPPED_DIRS.includes(entry.name)) || ignore.matches(entryRel, isDir))
          ) {
            state.hidden++;
            continue;
          }
          if (state.shown.length >= LIST_MAX_ENTRIES) state.counting = true;
          if (state.counting) state.omitted++;
          else
            state.shown.push({
              path: entryRel,
              type: entry.type,
              depth: level,
              ...(entry.size === undefined ? {} : { size: entry.size }),
            });
          if (state.omitted + state.shown.length >= COUNT_LIMIT) {
            state.stopped = true;
            return;
          }
          if (isDir && level < (args.depth ?? 1)) {
            await walk(join(abs, entry.name), entryRel, level + 1);
            if (state.stopped) return;
          }
        }
      };
      try {
        await walk(verdict.path, verdict.relative, 1);
      } catch (err) {
        const notDir = (err as NodeJS.ErrnoException).code === 'ENOTDIR';
        return {
          ok: false,
          error: notDir ? `${shown} is a file; use read_file to read it.` : describeFsError(err, shown),
        };
      }
      return {
        ok: true,
        output: render(shown, verdict.relative, state),
        data: { path: verdict.relative, entries: state.shown, omitted: state.omitted, hidden: state.hidden },
      };
    },
  });
}

async function loadAncestorIgnores(
  effects: ListDirEffects,
  root: string,
  relative: string,
  ignore: GitIgnore,
): Promise<void> {
  const parts = relative === '' ? [] : relative.split('/');
  for (let i = 0; i <= parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const text = await effects.readText(join(root, base, '.gitignore'));
    if (text !== undefined) ignore.add(base, text);
  }
}

function render(
  shown: string,
  base: string,
  state: { shown: Listed[]; omitted: number; hidden: number; stopped: boolean },
): string {
  const lines = [`${shown}/`];
  for (const entry of state.shown) {
    const name = base === '' ? entry.path : entry.path.slice(base.length + 1);
    const leaf = name.slice(name.lastIndexOf('/') + 1);
    const indent = '  '.repeat(entry.depth);
    if (entry.type === 'dir') lines.push(`${indent}${leaf}/`);
    else if (entry.type === 'file')
      lines.push(`${indent}${leaf}  ${entry.size === undefined ? '?' : formatBytes(entry.size)}`);
    else lines.push(`${indent}${leaf}  (${entry.type})`);
  }
  if (state.shown.length === 0) lines.push('  (empty)');
  if (state.omitted > 0) {
    lines.push(
      `[${state.stopped ? 'more than ' : ''}${state.omitted} more entries not shown (limit ${LIST_MAX_ENTRIES}); list a sub-folder or lower depth]`,
    );
  }
  if (state.hidden > 0)
    lines.push(
      `[${state.hidden} ignored entries hidden (.git, node_modules, .gitignore); include_ignored: true shows them]`,
    );
  return lines.join('\n');
}
