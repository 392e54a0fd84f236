/**
 * Every build-time swap of a dependency's internals is in scripts/replacements.mjs, and each still
 * fits the package as installed: the plugin's own code runs against the real file and must swap it
 * (not fail, not pass it through unchanged), so an upgrade that moves a replaced internal fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without types
import { sharedOptions } from '../../scripts/esbuild-options.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { REPLACEMENTS } from '../../scripts/replacements.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { SIDE_MODULES } from '../../scripts/side-modules.mjs';

type Row = { id: string; kind: 'plugin' | 'alias' | 'side-module'; target: string; in: string } & Record<
  'what' | 'why' | 'upstream' | 'deleteWhen',
  string
>;
type LoadResult = { contents?: string; errors?: { text: string }[] } | undefined;
type OnLoad = {
  filter: RegExp;
  namespace?: string;
  fn: (args: { path: string }) => Promise<LoadResult> | LoadResult;
};
type OnResolve = {
  filter: RegExp;
  fn: (args: { path: string; resolveDir: string; kind: string }) => unknown;
};
type Plugin = { name: string; setup(build: unknown): void };

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = join(repo, 'node_modules');
const rows = REPLACEMENTS as Row[];
const options = sharedOptions(repo) as { plugins: Plugin[]; alias: Record<string, string> };

/** What a plugin registers, by running its setup against a recording stand-in for esbuild. */
function registered(plugin: Plugin): { loads: OnLoad[]; resolves: OnResolve[] } {
  const loads: OnLoad[] = [];
  const resolves: OnResolve[] = [];
  plugin.setup({
    onLoad: (o: { filter: RegExp; namespace?: string }, fn: OnLoad['fn']) => loads.push({ ...o, fn }),
    onResolve: (o: { filter: RegExp }, fn: OnResolve['fn']) => resolves.push({ ...o, fn }),
  });
  return { loads, resolves };
}

describe('the index of build-time replacements (scripts/replacements.mjs)', () => {
  it('names every plugin and alias the bundle uses, and nothing else; each row says what, why, upstream, delete when', () => {
    const used = [...options.plugins.map((p) => p.name), ...Object.keys(options.alias), 'side-modules'];
    expect(rows.map((r) => r.id).sort()).toEqual(used.sort());
    for (const row of rows) {
      for (const field of ['what', 'why', 'upstream', 'deleteWhen'] as const)
        expect(row[field].length, `${row.id}.${field}`).toBeGreaterThan(5);
      expect(existsSync(join(repo, row.in)), row.in).toBe(true);
      expect(existsSync(join(modules, row.target)), row.target).toBe(true);
    }
  });

  const pluginRows = rows.filter((r) => r.kind === 'plugin');
  it.each(pluginRows)('$id still swaps the installed $target', async (row) => {
    const plugin = options.plugins.find((p) => p.name === row.id) as Plugin;
    const { loads, resolves } = registered(plugin);
    const file = join(modules, row.target);
    const onFile = loads.find((l) => l.namespace === undefined && l.filter.test(file));
    if (onFile) {
      const result = await onFile.fn({ path: file });
      expect(result?.errors ?? []).toEqual([]);
      expect(result?.contents).toBeDefined();
      expect(result?.contents).not.toBe(readFileSync(file, 'utf8'));
      return;
    }
    // A plugin that swaps an import instead (zod's locales, React's entries): the installed file still
    // makes that import, and the plugin takes it.
    const source = readFileSync(file, 'utf8');
    const taken = resolves.some((r) => {
      const specifier = row.id === 'react-esm' ? 'react' : '../locales/index.js';
      if (!r.filter.test(specifier)) return false;
      if (row.id !== 'react-esm' && !source.includes(`"${specifier}"`)) return false;
      return r.fn({ path: specifier, resolveDir: dirname(file), kind: 'import-statement' }) !== undefined;
    });
    expect(taken).toBe(true);
  });

  it("the devtools stand-in has every member Ink's devtools module calls", async () => {
    const source = readFileSync(join(modules, 'ink/build/devtools.js'), 'utf8');
    const called = [...source.matchAll(/\bdevtools\.(\w+)\(/g)].map((m) => m[1]);
    const stub = (await import(join(repo, 'scripts/devtools-stub.mjs'))).default as Record<string, unknown>;
    expect(called.length).toBeGreaterThan(0);
    for (const name of called) expect(typeof stub[name as string], name).toBe('function');
  });

  it('each side module: its stub file exists and exports the function the build swaps', () => {
    for (const m of SIDE_MODULES as { stub: string; fn: string; pkg: string }[]) {
      const stub = readFileSync(join(repo, m.stub), 'utf8');
      expect(stub, m.stub).toMatch(new RegExp(`export (function|const) ${m.fn}\\b`));
      expect(existsSync(m.pkg.startsWith('./') ? join(repo, m.pkg) : join(modules, m.pkg)), m.pkg).toBe(true);
    }
  });
});
