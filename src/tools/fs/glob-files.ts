import { credentialFile } from '../../policy/credential-files';
import { join } from 'node:path';
import { lazySchema } from '../../lazy-zod';
import { describeFsError, shownPath } from './fs-common';
import { ALWAYS_SKIPPED_DIRS, GitIgnore, IGNORE_FILE_MAX_BYTES } from './gitignore';
import { readFileSafely } from './safe-fs';
import { defineTool, fencedPath } from '../types';

export const GLOB_MAX_RESULTS = 200;

export type GlobHit = { path: string; mtimeMs: number };

/** The operations glob_files uses; tests swap them. */
export type GlobFilesEffects = {
  /** Files (not folders) under `cwd` matching `patterns`, paths relative to `cwd`; symbolic links never followed. */
  glob(patterns: string[], options: { cwd: string; ignore: string[] }): Promise<GlobHit[]>;
  readText(path: string): Promise<string | undefined>;
};

export const defaultGlobFilesEffects: GlobFilesEffects = {
  async glob(patterns, { cwd, ignore }) {
    // Loaded on the first glob: start-up does not compile fast-glob and its matchers.
    const { default: fg } = await import('fast-glob');
    const entries = await fg(patterns, {
      cwd,
      ignore,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      stats: true,
      suppressErrors: true,
    });
    return entries.map((e) => ({ path: e.path, mtimeMs: e.stats?.mtimeMs ?? 0 }));
  },
  // Through a descriptor opened without following a link, non-blocking (safe-fs.ts), as list_dir reads
  // them: a .gitignore that links out of the project, to /dev/zero or /dev/tty, or a FIFO a command
  // made, is not read (git does not follow a symlinked .gitignore either) and cannot hang the call.
  readText: (path) =>
    readFileSafely({ path }, IGNORE_FILE_MAX_BYTES).then(
      (found) => (found.kind === 'file' ? found.bytes.toString('utf8') : undefined),
      () => undefined,
    ),
};

const schema = lazySchema((z) =>
  z.strictObject({
    pattern: z.string().min(1),
    path: z.string().optional(),
  }),
);

const SKIP_GLOBS = ALWAYS_SKIPPED_DIRS.map((dir) => `**/${dir}/**`);

/** Why a glob pattern is refused, or undefined when it stays under its folder. */
export function describeUnsafePattern(pattern: string): string | undefined {
  if (pattern.includes('\0')) return 'The pattern contains a NUL byte.';
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern))
    return `"${pattern}" is absolute; give a pattern relative to path.`;
  if (pattern.startsWith('~')) return `"${pattern}" starts with ~; give a pattern relative to path.`;
  if (pattern.includes('..'))
    return `"${pattern}" contains "..", which could leave the folder; use the path argument instead.`;
  return undefined;
}

/**
 * glob_files: files matching a glob under a fenced folder, newest first, at most 200; honours .gitignore
 * (root and nested) and skips .git and node_modules.
 * Contract: never throws; patterns that could escape (absolute, `..`) are refused.
 */
export function createGlobFilesTool(effects: GlobFilesEffects = defaultGlobFilesEffects) {
  return defineTool({
    name: 'glob_files',
    summary: (args) => args.path ?? args.pattern,
    kind: 'read',
    hookAlias: { name: 'Glob' },
    guarded: { paths: ['path'] },
    description: 'Find files by glob (e.g. "**/*.ts"), newest first.',
    schema,
    async execute(args, ctx) {
      const unsafe = describeUnsafePattern(args.pattern);
      if (unsafe) return { ok: false, error: unsafe };
      const verdict = fencedPath(ctx, 'path', args.path ?? '.');
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      const shown = shownPath(verdict.relative);
      const prefix =
        verdict.relative === '' ? '' : `${(await import('fast-glob')).default.escapePath(verdict.relative)}/`;
      try {
        const ignore = await loadIgnores(effects, ctx.root);
        const hits = await effects.glob([`${prefix}${args.pattern.replace(/^\.\//, '')}`], {
          cwd: ctx.root,
          ignore: [...SKIP_GLOBS, ...ignore.pruneGlobs()],
        });
        const files = hits
          .filter(
            (hit) =>
              !hit.path.startsWith('../') && !hit.path.startsWith('/') && !ignore.ignores(hit.path, false),
          )
          .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
        if (files.length === 0)
          return {
            ok: true,
            output: `No files match ${args.pattern} under ${shown}.`,
            data: { files: [], total: 0 },
          };
        const shownFiles = files.slice(0, GLOB_MAX_RESULTS).map((f) => f.path);
        const more = files.length - shownFiles.length;
        const tail =
          more > 0
            ? [`[${more} more files not shown (limit ${GLOB_MAX_RESULTS}); narrow the pattern or path]`]
            : [];
        // Named, never shown: a credential file is listed with what reading it takes (the one predicate).
        const credentials = shownFiles.filter((f) => credentialFile(f, join(ctx.root, f)) !== undefined);
        const lines = shownFiles.map((f) =>
          credentials.includes(f) ? `${f}  [credential file: reading it asks the person]` : f,
        );
        return {
          ok: true,
          output: [...lines, ...tail].join('\n'),
          data: {
            files: shownFiles,
            total: files.length,
            ...(credentials.length > 0 ? { credentials } : {}),
          },
        };
      } catch (err) {
        return { ok: false, error: describeFsError(err, shown) };
      }
    },
  });
}

/** The root .gitignore plus every nested one outside skipped folders, shallowest first. */
async function loadIgnores(effects: GlobFilesEffects, root: string): Promise<GitIgnore> {
  const ignore = new GitIgnore();
  const rootText = await effects.readText(join(root, '.gitignore'));
  if (rootText !== undefined) ignore.add('', rootText);
  const nested = await effects.glob(['**/.gitignore'], {
    cwd: root,
    ignore: [...SKIP_GLOBS, ...ignore.pruneGlobs()],
  });
  const files = nested
    .map((hit) => hit.path)
    .filter((path) => path !== '.gitignore')
    .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const file of files) {
    const base = file.slice(0, -'/.gitignore'.length);
    if (ignore.ignores(base, true)) continue;
    const text = await effects.readText(join(root, file));
    if (text !== undefined) ignore.add(base, text);
  }
  return ignore;
}
