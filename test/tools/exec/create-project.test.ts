import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCreateProjectTool } from '../../../src/tools/exec/create-project';
import { parseToolArgs } from '../../../src/tools/parse-args';
import { findOnPath } from '../../../src/tools/exec/sandbox';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createCreateProjectTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

const files = (data: unknown) => (data as { files: string[] }).files;
const has = (name: string) => findOnPath(name) !== undefined;
const run = (file: string, args: string[], cwd: string) =>
  execFileSync(file, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' },
  });

describe('create_project', () => {
  it('scaffolds a node project whose npm test passes', async () => {
    t = makeToolContext();
    const result = await tool.execute({ name: 'web-app', type: 'node' }, t.ctx);
    expect(result).toMatchObject({ ok: true, output: expect.stringContaining('cd web-app && npm test') });
    expect(files(result.data)).toEqual([
      'web-app/package.json',
      'web-app/src/index.js',
      'web-app/test/index.test.js',
      'web-app/.gitignore',
    ]);
    expect(t.preImages).toEqual(files(result.data).map((f) => join(t.root, f)));
    const pkg = JSON.parse(readFileSync(join(t.root, 'web-app/package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'web-app', type: 'module', scripts: { test: 'node --test' } });
    expect(run('npm', ['test', '--silent'], join(t.root, 'web-app'))).toMatch(/pass 1/);
    expect(run('node', ['src/index.js', 'you'], join(t.root, 'web-app'))).toBe('Hello, you!\n');
  });

  it.skipIf(!has('python3'))('scaffolds a python project whose unittest passes', async () => {
    t = makeToolContext();
    const result = await tool.execute({ name: 'My.Tool', type: 'python' }, t.ctx);
    expect(files(result.data)).toContain('My.Tool/my_tool/__init__.py');
    expect(files(result.data)).toContain('My.Tool/tests/test_my_tool.py');
    const tests = spawnSync('python3', ['-m', 'unittest'], {
      cwd: join(t.root, 'My.Tool'),
      encoding: 'utf8',
    });
    expect(tests.status).toBe(0);
    expect(tests.stderr).toMatch(/Ran 1 test[\s\S]*OK/);
    expect(run('python3', ['-m', 'my_tool', 'you'], join(t.root, 'My.Tool'))).toBe('Hello, you!\n');
  });

  it.skipIf(!has('javac'))('scaffolds a java project that compiles and runs', async () => {
    t = makeToolContext();
    const result = await tool.execute({ name: 'svc', type: 'java' }, t.ctx);
    expect(files(result.data)).toEqual([
      'svc/pom.xml',
      'svc/src/main/java/App.java',
      'svc/src/test/java/AppTest.java',
      'svc/.gitignore',
    ]);
    const dir = join(t.root, 'svc');
    run('javac', ['-d', 'out', 'src/main/java/App.java'], dir);
    expect(run('java', ['-cp', 'out', 'App', 'you'], dir)).toBe('Hello, you!\n');
    expect(readFileSync(join(dir, 'pom.xml'), 'utf8')).toContain('<artifactId>junit-jupiter</artifactId>');
  });

  it('refuses an existing folder and writes nothing', async () => {
    t = makeToolContext({ files: { 'taken/keep.txt': 'mine' } });
    expect(await tool.execute({ name: 'taken', type: 'node' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('already exists'),
    });
    expect(existsSync(join(t.root, 'taken/package.json'))).toBe(false);
    expect(t.preImages).toEqual([]);
  });

  it.each(['../x', 'a/b', '.', '..', '...', '.hidden', '-rf', '', 'a b', 'x'.repeat(65)])(
    'rejects the name %j in the schema',
    (name) => {
      const parsed = parseToolArgs(tool, { name, type: 'node' });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain('name:');
    },
  );

  it('rejects an unknown type naming the field', () => {
    const parsed = parseToolArgs(tool, { name: 'x', type: 'rust' });
    expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining('type: Invalid option') });
  });
});
