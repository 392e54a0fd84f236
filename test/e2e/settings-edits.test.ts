/**
 * The person's own edits are never thrown away (issue 29 §2), through the real binary: while a turn
 * runs, the person's editor adds a deny rule to $WARDEN_HOME/policy.json. The calls running then
 * cannot write there (warden's fenced file tools), so the edit is kept — not moved aside as
 * `.rejected-*` — read again, and the deny rule stops the turn's next write; headless says so.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const write = (path: string) => ({ toolCalls: [{ name: 'write_file', args: { path, content: 'x\n' } }] });

describe("the person's edit of policy.json during a turn", () => {
  it('is kept and read again: its deny rule counts from the next call, and nothing is moved aside', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-edits-proj-')));
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'warden-edits-home-')));
    cleanup.push(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    });
    const policy = join(home, 'policy.json');
    writeFileSync(policy, '{"rules":[]}\n');
    const edit = `${JSON.stringify({ rules: [{ tool: 'write_file', when: { path: 'b.txt' }, decision: 'deny' }] })}\n`;
    const server = await startFakeOpenAI(
      [
        write('a.txt'),
        () => {
          writeFileSync(policy, edit); // the person's editor, while the turn runs
          return write('c.txt');
        },
        write('b.txt'),
        { text: 'done' },
      ],
      { whenExhausted: { text: 'Done.' } },
    );
    cleanup.push(() => server.close());
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [WARDEN_BIN, '--headless', '--mode', 'auto-edit', '--root', root, '-p', 'write three files'],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            TMPDIR: tmpdir(),
            WARDEN_HOME: home,
            OPENAI_BASE_URL: server.url,
            OPENAI_API_KEY: 'k',
            WARDEN_MODEL: 'fake-model',
          },
        },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(readFileSync(policy, 'utf8')).toBe(edit);
    expect(readdirSync(home).filter((f) => f.includes('.rejected-'))).toEqual([]);
    expect(run.stderr).toMatch(/policy\.json changed while write_file ran, which cannot write there: kept/);
    expect(existsSync(join(root, 'c.txt'))).toBe(true);
    expect(existsSync(join(root, 'b.txt'))).toBe(false);
    expect(run.stderr).toMatch(/write_file blocked/);
    expect(run.code).toBe(3);
  });
});
