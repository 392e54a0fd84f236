import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findDemoAssetsDir } from '../../src/llm/demo-assets';
import { prepareDemoProject } from '../../src/llm/demo-model';
import { loadDemoScript } from '../../src/llm/demo-script';
import { pickDemoTurn } from '../../src/llm/demo-story';

const run = promisify(execFile);
const parents: string[] = [];
afterAll(async () => {
  await Promise.all(parents.map((p) => rm(p, { recursive: true, force: true })));
});

async function tempParent(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'warden-demo-test-'));
  parents.push(dir);
  return dir;
}

describe('findDemoAssetsDir', () => {
  it('walks up from src/ and from a bundled dist/ alike', () => {
    const assets = findDemoAssetsDir();
    expect(existsSync(join(assets, 'script.json'))).toBe(true);
    const root = dirname(dirname(assets));
    expect(findDemoAssetsDir(join(root, 'dist'))).toBe(assets);
  });

  it('says where it looked when there is nothing', () => {
    expect(() => findDemoAssetsDir(tmpdir())).toThrow(/could not find assets\/demo above/);
  });
});

describe('prepareDemoProject', () => {
  it('copies the demo project to a fresh folder, each time a new one', async () => {
    const parent = await tempParent();
    const project = await prepareDemoProject(parent);
    expect(project.startsWith(await realpath(parent))).toBe(true);
    for (const file of ['package.json', 'README.md', 'src/greet.js', 'test/greet.test.js']) {
      expect(existsSync(join(project, file)), file).toBe(true);
    }
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ type: 'module', scripts: { test: 'node --test' } });
    expect(pkg.dependencies).toBeUndefined();
    expect(await prepareDemoProject(parent)).not.toBe(project);
  });

  it('passes its tests before and after the scripted writes', async () => {
    const project = await prepareDemoProject(await tempParent());
    const before = await run(process.execPath, ['--test'], { cwd: project });
    expect(before.stdout).toMatch(/# pass 1\b/);

    // Apply every write the script makes inside the project, as an approving person would.
    const script = await loadDemoScript(join(findDemoAssetsDir(), 'script.json'));
    const writes = script.conversations
      .flatMap((c) => c.turns.flatMap((t) => t.toolCalls))
      .filter((c) => c.name === 'write_file');
    const inside = writes.filter((w) => !String(w.args.path).startsWith('..'));
    expect(inside.map((w) => w.args.path).sort()).toEqual(['src/farewell.js', 'test/farewell.test.js']);
    for (const w of inside) {
      const path = join(project, String(w.args.path));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, String(w.args.content));
    }
    const after = await run(process.execPath, ['--test'], { cwd: project });
    expect(after.stdout).toMatch(/# pass 2\b/);
    const said = await run(
      process.execPath,
      ['-e', "import('./src/farewell.js').then(m => console.log(m.farewell('demo')))"],
      { cwd: project },
    );
    expect(said.stdout.trim()).toBe('Goodbye, demo!');
  });
});

describe('the demo script', () => {
  it('is valid, and every sub-agent task the main script spawns has its own conversation', async () => {
    const script = await loadDemoScript(join(findDemoAssetsDir(), 'script.json'));
    const spawn = script.conversations
      .flatMap((c) => c.turns.flatMap((t) => t.toolCalls))
      .find((c) => c.name === 'spawn_agents');
    const agents = spawn?.args.agents as { name: string; task: string }[];
    expect(agents.map((a) => a.name)).toEqual(['writer', 'tester']);
    for (const a of agents) {
      const pick = pickDemoTurn(
        script,
        [{ role: 'user', content: a.task }],
        [
          { name: 'write_file', description: '', parameters: {} },
          { name: 'execute_command', description: '', parameters: {} },
        ],
      );
      expect(pick).toMatchObject({ kind: 'turn', agent: a.name, step: 0 });
    }
  });
});
