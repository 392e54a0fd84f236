import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';
import { auditDayFiles } from '../helpers/audit-lines';

type Run = { code: number; stdout: string; stderr: string };

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

function warden(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WARDEN_BIN, ...args],
      {
        env: { ...noManagedLayer(), PATH: process.env.PATH ?? '', HOME: cwd, TMPDIR: tmpdir(), ...env },
        cwd,
      },
      (error, stdout, stderr) => {
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      },
    );
  });
}

const EVIL = 'A\u001b]52;c;UFdORUQ=\u0007B\u001b]0;TITLE\u001b\\C\u001b[2JD\u009b6nE\u202eF';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const TOKEN = `ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}`;

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the warden binary prints no raw sequence and logs no secret', () => {
  it('a config error, headless text and JSON output, and the audit table and JSON', async () => {
    const root = temp('warden-text-proj-');
    const home = temp('warden-text-home-');
    mkdirSync(join(root, '.warden'));
    // A stranger's config with an odd key stops start-up with an error that quotes it.
    writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify({ [`odd${EVIL}`]: 1 }));
    const refused = await warden(
      ['--headless', '-p', 'go', '--root', root],
      { OPENAI_BASE_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: 'k', WARDEN_HOME: home },
      root,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('⟨U+202E⟩');
    expect(refused.stderr.replace(/\n/g, '')).not.toMatch(RAW);
    rmSync(join(root, '.warden'), { recursive: true });

    const script = () => [
      {
        text: `model says ${EVIL}`,
        toolCalls: [{ name: 'execute_command', args: { command: `echo ${TOKEN} ${EVIL}` } }],
      },
      { text: `done ${EVIL}` },
    ];
    const env = (url: string) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: 'k', WARDEN_HOME: home });

    fake = await startFakeOpenAI(script());
    const text = await warden(['--headless', '-p', 'go', '--root', root], env(fake.url), root);
    await fake.close();
    expect(text.stdout).toContain('done A␛]52;c;UFdORUQ=␇B␛]0;TITLE␛\\C␛[2JD⟨U+009B⟩6nE⟨U+202E⟩F');
    expect(text.stdout.replace(/\n/g, '')).not.toMatch(RAW);
    expect(text.stderr.replace(/\n/g, '')).not.toMatch(RAW);

    fake = await startFakeOpenAI(script());
    const json = await warden(['--headless', '--json', '-p', 'go', '--root', root], env(fake.url), root);
    const lines = json.stdout.trim().split('\n');
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(lines.map((l) => JSON.parse(l)).at(-1)).toMatchObject({ type: 'result', text: `done ${EVIL}` });

    const auditDir = join(home, 'audit');
    const logged = auditDayFiles(auditDir)
      .map((f) => readFileSync(join(auditDir, f), 'utf8'))
      .join('');
    expect(logged).toContain('execute_command');
    expect(logged).not.toContain(TOKEN.slice(0, 12));

    const table = await warden(['audit'], { WARDEN_HOME: home }, root);
    expect(table.stdout).toContain('execute_command');
    expect(table.stdout.replace(/\n/g, '')).not.toMatch(RAW);
    const auditJson = await warden(['audit', '--json'], { WARDEN_HOME: home }, root);
    for (const line of auditJson.stdout.trim().split('\n')) expect(line).not.toMatch(RAW);
    expect(auditJson.stdout).not.toContain(TOKEN.slice(0, 12));
  });
});
