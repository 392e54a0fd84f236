/**
 * "Executors are reachable only through the gate", proven two ways: the executor refuses without
 * a token only the gate mints, and the source shows no other road to a tool's `execute`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { GuardedExecutor } from '../../src/gate/executor';
import { hashArgs } from '../../src/gate/hash';
import { TokenMint } from '../../src/gate/tokens';
import { createGateHarness, type GateHarness, stubTools } from '../helpers/gate-harness';
import { createCoreTools } from '../../src/tools/index';
import { createAskUserTool } from '../../src/tools/interact/ask-user';
import { createProposePlanTool } from '../../src/tools/interact/propose-plan';
import { createRevertTurnTool } from '../../src/tools/interact/revert-turn';
import { createSpawnAgentsTool } from '../../src/tools/interact/spawn-agents';
import { createUpdatePlanTool } from '../../src/tools/interact/update-plan';
import { createWebTools } from '../../src/tools/web/web-search';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(repo, 'src');
const toolsDir = join(src, 'tools');

/** Every .ts/.tsx file under a folder, as absolute paths. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

type Import = { specifier: string; typeOnly: boolean; names: string[]; line: string };

/** Static imports, re-exports, dynamic imports and requires of a file; `typeOnly` when nothing reaches runtime. */
export function importsOf(code: string): Import[] {
  const found: Import[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;=()]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(statement)) {
    const [line, , typeKeyword, clause = '', specifier = ''] = m;
    const braces = /\{([\s\S]*)\}/.exec(clause);
    const named = braces
      ? (braces[1] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    const hasDefaultOrNamespace =
      clause
        .replace(/\{[\s\S]*\}/, '')
        .replace(/,/g, '')
        .trim() !== '';
    const typeOnly =
      Boolean(typeKeyword) ||
      (!hasDefaultOrNamespace && named.length > 0 && named.every((n) => n.startsWith('type ')));
    found.push({
      specifier,
      typeOnly,
      names: named.map((n) => n.replace(/^type\s+/, '').split(/\s+as\s+/)[0] as string),
      line: line.trim(),
    });
  }
  for (const m of code.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g))
    found.push({ specifier: m[1] as string, typeOnly: false, names: [], line: m[0].trim() });
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ specifier: m[1] as string, typeOnly: false, names: [], line: m[0].trim() });
  return found;
}

/** The absolute module path an import names, without extension, or undefined for packages. */
function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(file), specifier).replace(/\.(js|ts|tsx)$/, '');
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const rel = (path: string) => relative(repo, path);

/** A module that defines or assembles tools (holds executors), as opposed to a helper. */
function isToolModule(modulePath: string): boolean {
  const file = [`${modulePath}.ts`, `${modulePath}.tsx`, join(modulePath, 'index.ts')].find(existsSync);
  if (!file) return false;
  const code = readFileSync(file, 'utf8');
  return /\bdefineTool\s*\(/.test(code) || /export\s+(?:async\s+)?function\s+create\w*Tools?\b/.test(code);
}

/** Value imports into src/tools/ from files outside it. */
function toolImports(files: string[]): { file: string; module: string; imp: Import }[] {
  return files.flatMap((file) =>
    importsOf(readFileSync(file, 'utf8')).flatMap((imp) => {
      const module = target(file, imp.specifier);
      return module && inside(module, toolsDir) && !imp.typeOnly ? [{ file, module, imp }] : [];
    }),
  );
}

describe('executors are reachable only through the gate', () => {
  let h: GateHarness | undefined;
  afterEach(() => h?.cleanup());

  it('the executor refuses any token the gate did not mint', async () => {
    h = createGateHarness();
    const executor = new GuardedExecutor(
      new Map(stubTools(join(h.root, '..', 'ran.log')).map((t) => [t.name, t])),
      new TokenMint(),
      h.deps,
    );
    const ctx = {
      root: h.root,
      fence: h.fence,
      commands: h.deps.commands,
      sandbox: h.deps.sandbox,
      signal: new AbortController().signal,
    };
    for (const token of [
      { id: '' },
      { id: 'guess' },
      new TokenMint().issue({ tool: 'execute_command', argsHash: hashArgs({ command: 'ls' }) }),
    ]) {
      expect(await executor.run(token, 'execute_command', { command: 'ls' }, ctx)).toMatchObject({
        kind: 'refused',
        code: 'token_unknown',
      });
    }
    expect(h.ran()).toEqual([]);
  });

  it('the gate hands out specs, never executors', () => {
    h = createGateHarness();
    const specs = h.gate.specs();
    expect(specs.map((s) => s.name)).toContain('write_file');
    for (const spec of specs) expect(Object.values(spec).some((v) => typeof v === 'function')).toBe(false);
  });

  it('only the guarded executor calls a tool’s execute (outside src/tools/)', () => {
    const offenders = sourceFiles(src)
      .filter((f) => !inside(f, toolsDir))
      .flatMap((file) => {
        const code = readFileSync(file, 'utf8');
        const calls = [
          ...code.matchAll(/\.execute\s*\(|\[\s*['"]execute['"]\s*\]|\{[^}]*\bexecute\b[^}]*\}\s*=[^=>]/g),
        ].map((m) => m[0]);
        return calls.length > 0 && rel(file) !== join('src', 'gate', 'executor.ts')
          ? [`${rel(file)}: ${calls.join(', ')}`]
          : [];
      });
    expect(offenders).toEqual([]);
  });

  it('outside src/gate/ and the composition root, nothing imports tool factories', () => {
    const allowedHelpers = new Set([join(toolsDir, 'parse-args'), join(toolsDir, 'types')]);
    const files = sourceFiles(src).filter(
      (f) =>
        !inside(f, toolsDir) && !inside(f, join(src, 'gate')) && f !== join(src, 'session', 'session.ts'),
    );
    const offenders = toolImports(files)
      .filter(
        ({ module, imp }) =>
          !allowedHelpers.has(module) &&
          (isToolModule(module) || imp.names.some((n) => /^create\w*Tools?$/.test(n))),
      )
      .map(({ file, imp }) => `${rel(file)}: ${imp.line}`);
    expect(offenders).toEqual([]);
  });

  it('src/agent/ never imports values from src/tools/', () => {
    const offenders = toolImports(sourceFiles(join(src, 'agent'))).map(
      ({ file, imp }) => `${rel(file)}: ${imp.line}`,
    );
    expect(offenders).toEqual([]);
  });

  it('the UI (components/) imports nothing from src/tools/ or the gate internals', () => {
    const components = join(repo, 'components');
    const offenders = sourceFiles(components).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).flatMap((imp) => {
        const module = target(file, imp.specifier);
        const forbidden =
          module && !imp.typeOnly && (inside(module, toolsDir) || inside(module, join(src, 'gate')));
        return forbidden ? [`${rel(file)}: ${imp.line}`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('the scanner itself sees what it must see', () => {
    const code = [
      "import type { A } from '../tools/types';",
      "import { type B, type C } from '../tools/write-file';",
      "import { createWriteFileTool } from '../tools/write-file';",
      "import { parseToolArgs, type X } from '../tools/parse-args';",
      "import * as all from '../tools/index';",
      "export { createCoreTools } from '../tools/index';",
      "export type { AnyTool } from '../tools/types';",
      "import '../tools/side-effect';",
      "const t = await import('../tools/execute-command');",
      "import {\n  createReadFileTool,\n  type ReadFileEffects,\n} from '../tools/read-file';",
    ].join('\n');
    expect(importsOf(code).map((i) => [i.specifier, i.typeOnly])).toEqual([
      ['../tools/types', true],
      ['../tools/write-file', true],
      ['../tools/write-file', false],
      ['../tools/parse-args', false],
      ['../tools/index', false],
      ['../tools/index', false],
      ['../tools/types', true],
      ['../tools/read-file', false],
      ['../tools/side-effect', false],
      ['../tools/execute-command', false],
    ]);
    expect(isToolModule(join(toolsDir, 'fs', 'write-file'))).toBe(true);
    expect(isToolModule(join(toolsDir, 'index'))).toBe(true);
    expect(isToolModule(join(toolsDir, 'parse-args'))).toBe(false);
  });
});

/** The file a relative specifier names (with its extension, or the folder's index), or undefined. */
function resolveModule(file: string, specifier: string): string | undefined {
  const base = target(file, specifier);
  if (!base) return undefined;
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    (c) => existsSync(c) && statSync(c).isFile(),
  );
}

/** Every import (type-only too: it couples files all the same) of src/ and components/, file → files. */
function importGraph(): Map<string, string[]> {
  const files = [...sourceFiles(src), ...sourceFiles(join(repo, 'components'))];
  return new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          importsOf(readFileSync(file, 'utf8')).flatMap((imp) => resolveModule(file, imp.specifier) ?? []),
        ),
      ],
    ]),
  );
}

/** One circle per strongly connected group of files that import each other (Tarjan), as relative paths. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(rel(w));
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Imports from `files` into modules under `dirs`, as "file: import line". */
function importsInto(files: string[], dirs: string[]): string[] {
  return files.flatMap((file) =>
    importsOf(readFileSync(file, 'utf8')).flatMap((imp) => {
      const module = resolveModule(file, imp.specifier);
      return module && dirs.some((d) => inside(module, d)) ? [`${rel(file)}: ${imp.line}`] : [];
    }),
  );
}

describe('the layout: folders are features, arrows point down (issue 12)', () => {
  it('components/ takes from the core only the contract (src/protocol/) and the pure text helpers (src/text/)', () => {
    const components = join(repo, 'components');
    const allowed = [join(src, 'protocol'), join(src, 'text')];
    const offenders = sourceFiles(components).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).flatMap((imp) => {
        const module = resolveModule(file, imp.specifier) ?? target(file, imp.specifier);
        return module && inside(module, src) && !allowed.some((d) => inside(module, d))
          ? [`${rel(file)}: ${imp.line}`]
          : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('no import circles in src/ and components/ (type-only imports count)', () => {
    expect(circlesOf(importGraph())).toEqual([]);
  });

  it('the contract (src/protocol/) imports nothing from the rest of the core', () => {
    const protocol = join(src, 'protocol');
    const others = readdirSync(src)
      .map((name) => join(src, name))
      .filter((p) => p !== protocol);
    expect(importsInto(sourceFiles(protocol), others)).toEqual([]);
  });

  it('no folder arrow runs back up the layers, and every folder has a layer (scripts/import-graph.mjs)', () => {
    // The layer table lives in the script only; the test reads the script's own verdict.
    const out = execFileSync(process.execPath, [join(repo, 'scripts', 'import-graph.mjs'), '--json'], {
      encoding: 'utf8',
    });
    const graph = JSON.parse(out) as {
      files: number;
      folderArrows: string[];
      backArrows: object;
      unlayered: string[];
    };
    expect(graph.files).toBeGreaterThan(200);
    expect(graph.folderArrows).toContain('src/gate → src/tools');
    expect(graph.backArrows).toEqual({});
    expect(graph.unlayered).toEqual([]);
  });

  it('no two feature folders import each other, in src/ or components/ (scripts/import-graph.mjs)', () => {
    const out = execFileSync(process.execPath, [join(repo, 'scripts', 'import-graph.mjs'), '--json'], {
      encoding: 'utf8',
    });
    expect((JSON.parse(out) as { folderCircles: string[][] }).folderCircles).toEqual([]);
  });

  it('the policy imports nothing from the layers above it (tools, gate, agent, session, mcp, llm)', () => {
    const above = ['tools', 'gate', 'agent', 'session', 'mcp', 'llm'].map((d) => join(src, d));
    expect(importsInto(sourceFiles(join(src, 'policy')), above)).toEqual([]);
  });

  it('sub-packages live in their folders, not flat beside them', () => {
    const flat = (dir: string, pattern: RegExp) =>
      readdirSync(join(src, dir))
        .filter((n) => pattern.test(n))
        .map((n) => join('src', dir, n));
    expect([
      ...flat('policy', /^command-.*\.ts$/),
      ...flat('policy', /^(path|ssrf)-guard\.ts$|^hard-guards\.ts$/),
      ...flat('tools', /^(web-|sandbox|process-|safe-fs).*\.ts$/),
      ...flat('.', /^(protocol|session.*|headless)\.ts$/),
    ]).toEqual([]);
    const tools = readdirSync(toolsDir).filter((n) => statSync(join(toolsDir, n)).isFile());
    expect(tools.sort()).toEqual(['index.ts', 'parse-args.ts', 'types.ts']);
  });

  it('only the gate imports the broker (its sibling envelopes.ts may take its types)', () => {
    const broker = join(src, 'gate', 'broker.ts');
    const gateFile = join(src, 'gate', 'gate.ts');
    const offenders = sourceFiles(src)
      .filter((f) => f !== gateFile && f !== broker)
      .flatMap((file) =>
        importsOf(readFileSync(file, 'utf8')).flatMap((imp) => {
          const typesBeside = imp.typeOnly && inside(file, join(src, 'gate'));
          return resolveModule(file, imp.specifier) === broker && !typesBeside
            ? [`${rel(file)}: ${imp.line}`]
            : [];
        }),
      );
    expect(offenders).toEqual([]);
  });

  it('no file outside src/tools/ names a tool in a string literal (tools declare what others need to know)', () => {
    const names = toolNames();
    // Each exception with its reason; anything else that needs a tool's trait asks the tool's declaration.
    const allowed = new Map([
      // The built-in rules table: a tool's default rule is the one other line adding a tool takes.
      [join('src', 'policy', 'defaults.ts'), 'the default rules, one per tool by name'],
    ]);
    const offenders = [
      ...sourceFiles(src).filter((f) => !inside(f, toolsDir)),
      ...sourceFiles(join(repo, 'components')),
    ]
      .filter((f) => !allowed.has(rel(f)))
      .flatMap((file) =>
        namedTools(withoutComments(readFileSync(file, 'utf8')), names).map(
          (name) => `${rel(file)}: '${name}'`,
        ),
      );
    expect(names.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });

  it('the tool-name scanner sees a quoted name and skips comments and longer words', () => {
    const names = ['write_file', 'ask_user'];
    expect(
      namedTools(withoutComments('if (t === \'write_file\') x();\nconst q = "ask_user";'), names),
    ).toEqual(['write_file', 'ask_user']);
    expect(namedTools(withoutComments('const t = `write_file`;'), names)).toEqual(['write_file']);
    expect(
      namedTools(
        withoutComments("// the 'write_file' tool\n/** `ask_user` asks */\nconst x = 'write_files';"),
        names,
      ),
    ).toEqual([]);
  });

  it('the circle finder sees a circle, type-only or not', () => {
    const graph = new Map([
      ['/r/a.ts', ['/r/b.ts']],
      ['/r/b.ts', ['/r/c.ts']],
      ['/r/c.ts', ['/r/a.ts']],
      ['/r/d.ts', ['/r/a.ts']],
    ]);
    expect(circlesOf(graph)).toHaveLength(1);
    expect(circlesOf(graph)[0]).toHaveLength(3);
    expect(
      circlesOf(
        new Map([
          ['/r/a.ts', ['/r/b.ts']],
          ['/r/b.ts', []],
        ]),
      ),
    ).toEqual([]);
    const here = join(src, 'policy', 'facts.ts');
    expect(resolveModule(here, '../protocol')).toBe(join(src, 'protocol', 'index.ts'));
    expect(resolveModule(here, './guards/path-guard')).toBe(join(src, 'policy', 'guards', 'path-guard.ts'));
  });
});

/** The names of every tool a session builds (the MCP tools come and go and are named by their server). */
function toolNames(): string[] {
  const provider = { name: 'stub', search: async () => [] };
  const tools = [
    ...createCoreTools(),
    ...createWebTools({ search: { kind: 'provider', provider } }),
    createSpawnAgentsTool(),
    createProposePlanTool(),
    createUpdatePlanTool(),
    createAskUserTool(),
    createRevertTurnTool({
      plan: async () => ({ turns: 0, changes: [] }),
      revert: async () => ({ restored: [], removed: [], skipped: [], turns: 0 }),
    }),
  ];
  return tools.map((t) => t.name);
}

/** Source without its comments (line and block); strings stay, which is what the scan reads. */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The tool names `code` holds as a whole string literal ('x', "x" or `x`), in order of appearance. */
function namedTools(code: string, names: readonly string[]): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(['"`])([a-z][a-z0-9_]*)\1/g))
    if (names.includes(m[2] as string)) found.push(m[2] as string);
  return found;
}
