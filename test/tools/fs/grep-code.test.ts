import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRgArgs, createGrepCodeTool, defaultGrepCodeEffects } from '../../../src/tools/fs/grep-code';
import { type GrepMatch, suggestReads } from '../../../src/tools/fs/grep-results';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createGrepCodeTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

type Data = {
  matches: GrepMatch[];
  truncated: boolean;
  suggested_reads: { path: string; offset: number; limit: number; hits: number }[];
};
const data = (result: { data?: unknown }) => result.data as Data;

describe('grep_code', () => {
  it('finds matches with root-relative paths and ranks suggested reads by hits', async () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      i === 9 || i === 19 || i === 29 ? 'call needle()' : `line ${i}`,
    ).join('\n');
    t = makeToolContext({
      files: { 'src/many.ts': many, 'src/one.ts': 'needle\n', 'lib/two.ts': 'a\nneedle\nb\nneedle\n' },
    });
    const result = await tool.execute({ pattern: 'needle' }, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(data(result).matches).toHaveLength(6);
    expect(data(result).suggested_reads).toEqual([
      { path: 'src/many.ts', offset: 5, limit: 31, hits: 3 },
      { path: 'lib/two.ts', offset: 1, limit: 4, hits: 2 },
      { path: 'src/one.ts', offset: 1, limit: 1, hits: 1 },
    ]);
    expect(result.output).toContain('src/many.ts\n  10: call needle()');
    expect(result.output).toContain('src/many.ts offset 5 limit 31 (3 hits)');
  });

  it('searches a sub-folder or a single file, paths still relative to the root', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'x needle', 'src/b.ts': 'needle', 'other.ts': 'needle' } });
    const sub = await tool.execute({ pattern: 'needle', path: 'src' }, t.ctx);
    expect(data(sub).matches.map((m) => m.path)).toEqual(['src/a.ts', 'src/b.ts']);
    const file = await tool.execute({ pattern: 'needle', path: 'src/a.ts' }, t.ctx);
    expect(data(file).matches).toEqual([{ path: 'src/a.ts', line: 1, text: 'x needle' }]);
  });

  it('treats patterns that look like flags as patterns', async () => {
    t = makeToolContext({ files: { 'notes.txt': 'use --pre=x here\n-v means verbose\n' } });
    const marker = join(t.root, 'pre-ran');
    // The script names the marker relative to itself: its text holds no temp-folder name (which could contain "-v").
    writeFileSync(join(t.root, 'x'), '#!/bin/sh\ntouch "$(dirname "$0")/pre-ran"\ncat "$1"\n');
    chmodSync(join(t.root, 'x'), 0o755);
    const pre = await tool.execute({ pattern: '--pre=x' }, t.ctx);
    expect(data(pre).matches).toEqual([{ path: 'notes.txt', line: 1, text: 'use --pre=x here' }]);
    const dash = await tool.execute({ pattern: '-v' }, t.ctx);
    expect(data(dash).matches).toEqual([{ path: 'notes.txt', line: 2, text: '-v means verbose' }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a folder search leaves credential files out, even when the glob names them; a named one is searched (the gate asked)', async () => {
    t = makeToolContext({
      files: {
        'a.txt': 'needle',
        'certs/server.pem': 'needle',
        'config/credentials.json': 'needle',
        'deploy/Prod.KEY': 'needle',
      },
    });
    const paths = async (args: { pattern: string; glob?: string; path?: string }) => {
      const result = await tool.execute(args, t.ctx);
      if (!result.ok) throw new Error(result.error);
      return data(result).matches.map((m) => m.path);
    };
    expect(await paths({ pattern: 'needle' })).toEqual(['a.txt']);
    expect(await paths({ pattern: 'needle', glob: '*.pem' })).toEqual([]);
    expect(await paths({ pattern: 'needle', glob: '**/*' })).toEqual(['a.txt']);
    expect(await paths({ pattern: 'needle', path: 'certs/server.pem' })).toEqual(['certs/server.pem']);
  });

  it('builds a fixed argv: no config, the pattern after -e, the path after --', () => {
    const args = buildRgArgs({ pattern: '--pre=x', glob: '--pre=y', ignoreCase: false, maxPerFile: 101 });
    expect(args.slice(-4)).toEqual(['-e', '--pre=x', '--', '.']);
    expect(args).toContain('--no-config');
    expect(args).toContain('--glob=--pre=y');
    expect(args.filter((a) => a.startsWith('--pre'))).toEqual(['--pre=x']);
    expect(args.indexOf('--pre=x')).toBe(args.indexOf('-e') + 1);
  });

  it('ignores RIPGREP_CONFIG_PATH', async () => {
    t = makeToolContext({ files: { 'a.txt': 'needle', 'rg.conf': '--glob=!*.txt\n--pre=/bin/false\n' } });
    const saved = process.env.RIPGREP_CONFIG_PATH;
    process.env.RIPGREP_CONFIG_PATH = join(t.root, 'rg.conf');
    let env: Record<string, string> = {};
    try {
      const spy = createGrepCodeTool({
        ...defaultGrepCodeEffects,
        run: (file, args, options) => ((env = options.env), defaultGrepCodeEffects.run(file, args, options)),
      });
      const result = await spy.execute({ pattern: 'needle', glob: '*.txt' }, t.ctx);
      expect(data(result).matches.map((m) => m.path)).toEqual(['a.txt']);
      expect(env.RIPGREP_CONFIG_PATH).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.RIPGREP_CONFIG_PATH;
      else process.env.RIPGREP_CONFIG_PATH = saved;
    }
  });

  it('filters with a glob, excludes with a leading !, and refuses globs that climb out', async () => {
    t = makeToolContext({ files: { 'a.ts': 'needle', 'b.md': 'needle' } });
    expect(
      data(await tool.execute({ pattern: 'needle', glob: '*.ts' }, t.ctx)).matches.map((m) => m.path),
    ).toEqual(['a.ts']);
    expect(
      data(await tool.execute({ pattern: 'needle', glob: '!*.ts' }, t.ctx)).matches.map((m) => m.path),
    ).toEqual(['b.md']);
    for (const glob of ['../*', '!../**', '/etc/*']) {
      expect(await tool.execute({ pattern: 'needle', glob }, t.ctx), glob).toMatchObject({ ok: false });
    }
  });

  it('honours .gitignore, skips node_modules and hidden files, even outside a git repository', async () => {
    t = makeToolContext({
      files: {
        '.gitignore': 'dist/\n',
        'dist/a.js': 'needle',
        'node_modules/m/i.js': 'needle',
        '.env': 'needle',
        'src/a.js': 'needle',
      },
    });
    const result = await tool.execute({ pattern: 'needle' }, t.ctx);
    expect(data(result).matches.map((m) => m.path)).toEqual(['src/a.js']);
  });

  it('caps matches (default 100) and says more exist', async () => {
    t = makeToolContext({ files: { 'a.txt': 'needle\n'.repeat(120), 'b.txt': 'needle\n'.repeat(120) } });
    const capped = await tool.execute({ pattern: 'needle' }, t.ctx);
    expect(data(capped).matches).toHaveLength(100);
    expect(data(capped).truncated).toBe(true);
    expect(capped).toMatchObject({ ok: true, output: expect.stringContaining('stopped at 100; more exist') });
    const wider = await tool.execute({ pattern: 'needle', max_results: 500 }, t.ctx);
    expect(data(wider).matches).toHaveLength(240);
    expect(data(wider).truncated).toBe(false);
  });

  it('shows a window around the match on a very long line', async () => {
    t = makeToolContext({ files: { 'min.js': `${'a'.repeat(5000)}needle${'b'.repeat(5000)}` } });
    const [match] = data(await tool.execute({ pattern: 'needle' }, t.ctx)).matches;
    expect(match?.text).toMatch(/^…a+needleb+…$/);
    expect(match?.text.length).toBeLessThanOrEqual(302);
  });

  it('treats no matches as a normal result and a bad regex as an error', async () => {
    t = makeToolContext({ files: { 'a.txt': 'hay' } });
    expect(await tool.execute({ pattern: 'needle' }, t.ctx)).toMatchObject({
      ok: true,
      output: expect.stringContaining('No matches'),
    });
    expect(await tool.execute({ pattern: '(unclosed' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('regex'),
    });
  });

  it('explains a missing ripgrep binary', async () => {
    t = makeToolContext({ files: { 'a.txt': 'needle' } });
    const gone = createGrepCodeTool({ ...defaultGrepCodeEffects, rgPath: async () => '/nonexistent/bin/rg' });
    expect(await gone.execute({ pattern: 'needle' }, t.ctx)).toEqual({
      ok: false,
      error: 'ripgrep binary not found at /nonexistent/bin/rg; reinstall with npm install.',
    });
    const noPackage = createGrepCodeTool({
      ...defaultGrepCodeEffects,
      rgPath: async () => {
        throw new Error('Could not find @vscode/ripgrep-linux-x64.');
      },
    });
    expect(await noPackage.execute({ pattern: 'needle' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/ripgrep binary not found.*npm install/),
    });
  });

  it('refuses paths outside the fence', async () => {
    t = makeToolContext();
    expect(await tool.execute({ pattern: 'x', path: '../' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the project'),
    });
  });
});

describe('suggestReads', () => {
  const hit = (path: string, line: number): GrepMatch => ({ path, line, text: '' });

  it('ranks by hits then path, keeps five, clamps to the file and to 2000 lines', () => {
    const matches = [
      hit('z.ts', 3),
      hit('z.ts', 9),
      hit('a.ts', 100),
      hit('a.ts', 5000),
      hit('b.ts', 1),
      ...['c', 'd', 'e', 'f'].map((n) => hit(`${n}.ts`, 50)),
    ];
    const reads = suggestReads(matches, new Map([['z.ts', 11]]));
    expect(reads.map((r) => r.path)).toEqual(['a.ts', 'z.ts', 'b.ts', 'c.ts', 'd.ts']);
    expect(reads[0]).toEqual({ path: 'a.ts', offset: 95, limit: 2000, hits: 2 });
    expect(reads[1]).toEqual({ path: 'z.ts', offset: 1, limit: 11, hits: 2 });
    expect(reads[2]).toEqual({ path: 'b.ts', offset: 1, limit: 6, hits: 1 });
  });
});
