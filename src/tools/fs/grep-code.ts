import { join } from 'node:path';
import { lazySchema } from '../../lazy-zod';
import { CREDENTIAL_RG_EXCLUDES, credentialFile } from '../../policy/credential-files';
import { scrubEnv } from '../exec/env-scrub';
import { pathInfo, shownPath } from './fs-common';
import { formatGrepOutput, type GrepMatch, parseRgLine, SUGGESTED_MAX, suggestReads } from './grep-results';
import { resolveRgPath, type RgRunOptions, type RgRunResult, runRg } from '../../os/ripgrep';
import { readFileSafely } from './safe-fs';
import { keepVerifiedMatches } from './safe-fs-verify';
import { defineTool, fencedPath } from '../types';

export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 500;
const GREP_TIMEOUT_MS = 30_000;

/** The operations grep_code uses; tests swap them (e.g. to simulate a missing binary). */
export type GrepCodeEffects = {
  rgPath(): Promise<string>;
  run(file: string, args: string[], options: RgRunOptions): Promise<RgRunResult>;
  /** Number of lines in a file, to clamp suggested ranges; undefined when unknown. */
  lineCount(path: string): Promise<number | undefined>;
};

export const defaultGrepCodeEffects: GrepCodeEffects = {
  rgPath: resolveRgPath,
  run: runRg,
  async lineCount(path) {
    // Through a descriptor (safe-fs.ts), not by path: a file swapped for a FIFO or a link after the
    // search must not hang the call or be read.
    const found = await readFileSafely({ path }, 10 * 1024 * 1024).catch(() => undefined);
    if (found?.kind !== 'file') return undefined;
    const text = found.bytes.toString('utf8');
    const newlines = text.split('\n').length - 1;
    return text.endsWith('\n') || text === '' ? newlines : newlines + 1;
  },
};

const schema = lazySchema((z) =>
  z.strictObject({
    pattern: z.string().min(1),
    path: z.string().optional(),
    glob: z.string().optional().describe('e.g. "*.ts"'),
    ignore_case: z.boolean().optional(),
    max_results: z.number().int().min(1).max(GREP_MAX_RESULTS).optional(),
  }),
);

/**
 * The fixed ripgrep argv. The pattern always follows `-e` and the path follows `--`, so neither can be read
 * as a flag; `--no-config` ignores RIPGREP_CONFIG_PATH; nothing here can add `--pre` or `--search-zip`.
 */
export function buildRgArgs(opts: {
  pattern: string;
  glob?: string;
  ignoreCase: boolean;
  maxPerFile: number;
}): string[] {
  return [
    '--no-config',
    '--json',
    '--no-follow',
    '--no-require-git',
    '--max-columns=1000',
    '--max-filesize=10M',
    `--max-count=${opts.maxPerFile}`,
    '--glob=!node_modules/',
    '--glob=!.git/',
    opts.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(opts.glob === undefined ? [] : [`--glob=${opts.glob}`]),
    // After the model's glob, so it cannot include them again (rg: the last matching glob wins). A
    // credential file is searched only when named as the path, and reading one asks.
    ...CREDENTIAL_RG_EXCLUDES,
    '-e',
    opts.pattern,
    '--',
    '.',
  ];
}

/** Why a file glob is refused, or undefined. A leading `!` is fine: it only excludes. */
export function describeUnsafeGlob(glob: string): string | undefined {
  const body = glob.startsWith('!') ? glob.slice(1) : glob;
  if (body === '' || body.includes('\0')) return `glob "${glob}" is empty or contains a NUL byte.`;
  if (body.startsWith('/') || body.startsWith('~') || body.includes('..'))
    return `glob "${glob}" must be relative and must not contain "..".`;
  return undefined;
}

/**
 * grep_code: ripgrep over the fenced path with a hardened argv, matches capped, plus the files worth reading next.
 * Contract: never throws; no matches is a normal result; a missing rg binary is a clear error.
 */
export function createGrepCodeTool(effects: GrepCodeEffects = defaultGrepCodeEffects) {
  return defineTool({
    name: 'grep_code',
    summary: (args) => args.path ?? args.pattern,
    kind: 'read',
    hookAlias: { name: 'Grep', input: (a) => ({ '-i': a.ignore_case }) },
    guarded: { paths: ['path'] },
    description: 'Search file contents by regex (ripgrep); returns matches and suggested_reads.',
    schema,
    async execute(args, ctx) {
      if (args.glob !== undefined) {
        const unsafe = describeUnsafeGlob(args.glob);
        if (unsafe) return { ok: false, error: unsafe };
      }
      const verdict = fencedPath(ctx, 'path', args.path ?? '.');
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      const info = await pathInfo(verdict.path).catch(() => undefined);
      if (!info) return { ok: false, error: `${shownPath(verdict.relative)} does not exist.` };
      // A FIFO, socket or device (a command can make one) is neither a file to search nor a folder to run in.
      if (info.kind !== 'file' && info.kind !== 'dir')
        return { ok: false, error: `${shownPath(verdict.relative)} is not a regular file or a folder.` };
      // rg gets a folder as cwd; a single file is searched from its folder.
      const isFile = info.kind === 'file';
      const cwdRel = isFile ? verdict.relative.split('/').slice(0, -1).join('/') : verdict.relative;
      const cap = args.max_results ?? GREP_DEFAULT_RESULTS;
      const argv = buildRgArgs({
        pattern: args.pattern,
        ignoreCase: args.ignore_case ?? false,
        maxPerFile: cap + 1,
        ...(args.glob === undefined ? {} : { glob: args.glob }),
      });
      if (isFile) argv[argv.length - 1] = verdict.path.slice(verdict.path.lastIndexOf('/') + 1);
      let rg: string;
      try {
        rg = await effects.rgPath();
      } catch (err) {
        return {
          ok: false,
          error: `ripgrep binary not found (${err instanceof Error ? err.message : String(err)}); reinstall with npm install.`,
        };
      }
      const env = scrubEnv(process.env).env;
      delete env.RIPGREP_CONFIG_PATH;
      const matches: GrepMatch[] = [];
      let truncated = false;
      const result = await effects.run(rg, argv, {
        cwd: isFile ? join(verdict.path, '..') : verdict.path,
        env,
        signal: ctx.signal,
        timeoutMs: GREP_TIMEOUT_MS,
        onLine(line) {
          const match = parseRgLine(line, cwdRel);
          if (!match) return 'more';
          if (matches.length >= cap) {
            truncated = true;
            return 'stop';
          }
          matches.push(match);
          return 'more';
        },
      });
      if (result.kind === 'spawn_failed') {
        const missing = result.code === 'ENOENT';
        return {
          ok: false,
          error: missing
            ? `ripgrep binary not found at ${rg}; reinstall with npm install.`
            : `could not start ripgrep: ${result.message}`,
        };
      }
      if (ctx.signal.aborted) return { ok: false, error: 'grep_code was cancelled.' };
      if (result.timedOut)
        return {
          ok: false,
          error: `ripgrep took longer than ${GREP_TIMEOUT_MS / 1000} s; narrow the path or glob.`,
        };
      // rg opened files by path: keep only lines the fenced file really holds (safe-fs-verify.ts).
      const verified = await keepVerifiedMatches(ctx.root, matches);
      // A folder search never shows a credential file's lines (what the globs cannot tell: backups,
      // content); one named as the path was asked about and approved.
      const secret = isFile
        ? []
        : verified.kept.filter((m) => credentialFile(m.path, join(ctx.root, m.path)));
      const secretFiles = new Set(secret.map((m) => m.path));
      matches.splice(0, matches.length, ...verified.kept.filter((m) => !secretFiles.has(m.path)));
      if (matches.length === 0) {
        if (result.code === 2 && result.stderr) return { ok: false, error: `ripgrep: ${result.stderr}` };
        return {
          ok: true,
          output: `No matches for /${args.pattern}/ in ${shownPath(verdict.relative)}.`,
          data: { matches: [], truncated: false, suggested_reads: [] },
        };
      }
      matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
      const lineCounts = await countLinesOfTopFiles(effects, ctx.root, matches);
      const reads = suggestReads(matches, lineCounts);
      const warning =
        result.code === 2 && result.stderr && !result.stopped
          ? `\n[ripgrep reported: ${result.stderr.split('\n')[0]}]`
          : '';
      const dropped =
        (verified.dropped > 0
          ? `\n[${verified.dropped} match(es) left out: the file changed on disk while searching]`
          : '') +
        (secretFiles.size > 0
          ? `\n[${secretFiles.size} credential file(s) left out of the search; reading one asks the person]`
          : '');
      return {
        ok: true,
        output: formatGrepOutput(matches, reads, truncated, cap) + warning + dropped,
        data: { matches, truncated, suggested_reads: reads },
      };
    },
  });
}

async function countLinesOfTopFiles(
  effects: GrepCodeEffects,
  root: string,
  matches: readonly GrepMatch[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const read of suggestReads(matches).slice(0, SUGGESTED_MAX)) {
    const lines = await effects.lineCount(join(root, read.path)).catch(() => undefined);
    if (lines !== undefined) counts.set(read.path, lines);
  }
  return counts;
}
