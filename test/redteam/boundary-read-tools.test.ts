/**
 * Red team, issue 26 §2: one credential predicate for every tool. read_file, grep_code, glob_files,
 * MCP arguments and command words all use the names (with backups) and the content check, resolved
 * through real paths; warden's own home is fenced out of every tool whatever the root.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandGuard } from '../../src/policy/command/command-types';
import { loadCommandGuard } from '../../src/policy/command/command-guard';
import { isCredentialPath } from '../../src/policy/credential-files';
import { gatherFacts } from '../../src/policy/facts';
import { PathFence } from '../../src/policy/guards/path-guard';
import { resolvePolicy } from '../../src/policy/resolve';
import { createExecuteCommandTool } from '../../src/tools/exec/execute-command';
import { createGlobFilesTool } from '../../src/tools/fs/glob-files';
import { createGrepCodeTool } from '../../src/tools/fs/grep-code';
import { createReadFileTool } from '../../src/tools/fs/read-file';
import type { AnyTool, ToolContext } from '../../src/tools/types';
import { MARK } from './boundary-harness';

let root: string;
let guard: CommandGuard;
let fence: PathFence;
const write = (rel: string, content: string) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-boundary-tools-')));
  guard = await loadCommandGuard();
  fence = new PathFence(root);
  write('src/app.ts', `export const marker = "${MARK.slice(0, 8)}";\n`);
  write('notes.txt', `-----BEGIN RSA PRIVATE KEY-----\n${MARK}\n`);
  write('.env.bak', `K=${MARK}\n`);
  write('backup/id_ed25519.old', `${MARK}\n`);
  write(
    'settings.json',
    `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----${MARK}"}\n`,
  );
  write('plain.json', '{"name": "not a key"}\n');
  symlinkSync('notes.txt', join(root, 'innocent.md'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const facts = (tool: AnyTool, args: Record<string, unknown>) =>
  gatherFacts(tool, args, { fence, commands: guard, sandbox: { kind: 'bwrap', path: '/usr/bin/bwrap' } });

describe('read_file asks for a credential file by name or by content', () => {
  const read = createReadFileTool();
  it.each(['notes.txt', '.env.bak', 'backup/id_ed25519.old', 'settings.json', 'innocent.md'])(
    '%s asks even in auto mode',
    (path) => {
      const f = facts(read, { path });
      expect(f.secret).toBeDefined();
      expect(resolvePolicy(f, { rules: [], mode: 'auto' }).decision).toBe('ask');
    },
  );

  it.each(['src/app.ts', 'plain.json'])('twin: %s reads without a card', (path) => {
    const f = facts(read, { path });
    expect(f.secret).toBeUndefined();
    expect(resolvePolicy(f, { rules: [], mode: 'manual' }).decision).toBe('allow');
  });
});

describe('a command naming a credential file asks, and its card unmasks exactly those files', () => {
  const exec = createExecuteCommandTool();
  it.each([
    ['cat notes.txt', ['notes.txt']],
    ['head -1 innocent.md', ['notes.txt']],
    ['cat .env.bak settings.json', ['.env.bak', 'settings.json']],
    ['wc -l < backup/id_ed25519.old', ['backup/id_ed25519.old']],
  ])('%s', (command, files) => {
    const f = facts(exec, { command });
    expect(f.secret).toBeDefined();
    expect(f.secretPaths).toEqual(files.map((p) => join(root, p)));
    expect(resolvePolicy(f, { rules: [], mode: 'auto' }).decision).toBe('ask');
  });
});

describe('an MCP tool’s arguments are read with the same predicate', () => {
  const mcp = { name: 'mcp__fs__read', kind: 'execute' } as unknown as AnyTool;
  it.each([
    [{ path: 'notes.txt' }],
    [{ uri: `file://${root}/.env.bak` }],
    [{ files: ['src/app.ts', '/home/someone/.ssh/id_rsa'] }],
    [{ nested: { target: 'infra/terraform.tfstate' } }],
  ])('%j names a credential file', (args) => {
    expect(facts(mcp, args).secret).toBeDefined();
  });

  it('twin: an ordinary path does not', () => {
    expect(facts(mcp, { path: 'src/app.ts' }).secret).toBeUndefined();
  });
});

describe('folder searches and listings', () => {
  const ctx = (): ToolContext => ({
    root,
    fence,
    commands: guard,
    sandbox: { kind: 'none', reason: 'test' },
    signal: new AbortController().signal,
  });

  it('grep_code leaves out files that are credentials by backup name or content', async () => {
    const result = await createGrepCodeTool().execute({ pattern: MARK.slice(0, 8) }, ctx());
    const text = result.ok ? result.output : result.error;
    expect(text).toContain('src/app.ts');
    expect(text).not.toContain(MARK);
    expect(text).toMatch(/credential file\(s\) left out/);
  });

  it('glob_files lists credential files with what reading them takes', async () => {
    const result = await createGlobFilesTool().execute({ pattern: '**/*' }, ctx());
    const text = result.ok ? result.output : result.error;
    expect(text).toMatch(/notes\.txt {2}\[credential file: reading it asks the person\]/);
    expect(text).toMatch(/^src\/app\.ts$/m);
  });
});

describe('credential names widened (gitleaks and secretlint file rules, backups)', () => {
  it.each([
    '.env-production',
    '.env_local',
    '.env~',
    '..env.swp',
    'id_rsa.bak',
    'id_rsa.orig',
    'deploy_rsa',
    'terraform.tfstate',
    'terraform.tfstate.backup',
    'x.tfvars.json',
    'serviceAccountKey.json',
    'my-app-firebase-adminsdk-abc.json',
    'credentials.toml',
    '.git-credentials',
    '.gitcookies',
    '.aws/config',
    '.vault-token',
    'kubeconfig',
    'vpn.ovpn',
  ])('%s is a credential file', (path) => expect(isCredentialPath(path)).toBe(true));

  it.each([
    '.env.example',
    'id_rsa.pub',
    'server.crt',
    '.ssh/known_hosts',
    'src/config.ts',
    'environment.bak.ts',
  ])('twin: %s is not', (path) => expect(isCredentialPath(path)).toBe(false));
});

describe('warden’s own home is fenced out of every tool, whatever the root', () => {
  it('a home inside the project', () => {
    const f = new PathFence(root, [], { hidden: [join(root, '.wh')] });
    expect(f.check('.wh/sessions/s.jsonl')).toMatchObject({ ok: false, ruleId: 'path-fence' });
    expect(f.check('src/app.ts').ok).toBe(true);
  });

  it('started in the home itself: its records are fenced, the rest is the project', () => {
    const f = new PathFence(root, [], { hidden: [join(root, 'sessions'), join(root, 'audit')] });
    expect(f.check('audit/audit-2026-01-01.jsonl').ok).toBe(false);
    expect(f.check('sessions').ok).toBe(false);
    expect(f.check('src/app.ts').ok).toBe(true);
  });

  it('a project inside the home (the demo) is not hidden by it', () => {
    const f = new PathFence(join(root, 'src'), [], { hidden: [root] });
    expect(f.check('app.ts').ok).toBe(true);
  });
});

describe('the content check never blocks', () => {
  it('a FIFO named like a readable file answers at once (no writer ever comes)', async () => {
    const { execFileSync } = await import('node:child_process');
    const { fileCredentialKind } = await import('../../src/policy/credential-content');
    const fifo = join(root, 'notes-fifo.txt');
    execFileSync('mkfifo', [fifo]);
    expect(fileCredentialKind(fifo)).toBeUndefined();
    const f = facts(createReadFileTool(), { path: 'notes-fifo.txt' });
    expect(f.secret).toBeUndefined();
  });
});
