/** The placeholder ledger: created, recorded, removed by the last holder, and swept after a kill -9. */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MountPointLedger, type Placeholder } from '../../../src/tools/exec/sandbox-mount-points';

let base: string;
let root: string;
let ledgerDir: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-mp-')));
  root = join(base, 'project');
  ledgerDir = join(base, 'ledger');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const holders = (): Placeholder[] => [
  { path: join(root, '.github'), kind: 'dir' },
  { path: join(root, '.github/workflows'), kind: 'dir' },
  { path: join(root, 'package.json'), kind: 'file', content: '{}' },
  { path: join(root, '.env'), kind: 'file' },
];
const records = () =>
  existsSync(ledgerDir) ? readdirSync(ledgerDir).filter((n) => n.endsWith('.json')) : [];

describe('MountPointLedger', () => {
  it('creates parents first, records them, and the release removes them and the record', () => {
    const ledger = new MountPointLedger(ledgerDir);
    const claimed = ledger.claim(holders());
    if (!claimed.ok) throw new Error(claimed.reason);
    expect(readdirSync(root).sort()).toEqual(['.env', '.github', 'package.json']);
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe('{}');
    expect(records()).toHaveLength(1);
    claimed.claim.release();
    expect(readdirSync(root)).toEqual([]);
    expect(records()).toEqual([]);
  });

  it('leaves what someone wrote into a placeholder meanwhile, and never touches what existed before', () => {
    writeFileSync(join(root, '.env'), 'MINE=1\n');
    const ledger = new MountPointLedger(ledgerDir);
    const claimed = ledger.claim(holders());
    if (!claimed.ok) throw new Error(claimed.reason);
    writeFileSync(join(root, '.github/workflows/ci.yml'), 'on: push\n');
    writeFileSync(join(root, 'package.json'), '{"name":"real"}');
    claimed.claim.release();
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('MINE=1\n');
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe('{"name":"real"}');
    expect(existsSync(join(root, '.github/workflows/ci.yml'))).toBe(true);
  });

  it('a placeholder another live run holds stays until the last holder releases it', () => {
    const ledger = new MountPointLedger(ledgerDir);
    const a = ledger.claim(holders());
    const b = ledger.claim(holders());
    if (!a.ok || !b.ok) throw new Error('claim failed');
    expect(b.claim.held.map((h) => h.path)).toContain(join(root, '.github/workflows'));
    a.claim.release();
    expect(existsSync(join(root, '.github/workflows'))).toBe(true);
    expect(ledger.sweep()).toBe(0);
    b.claim.release();
    expect(readdirSync(root)).toEqual([]);
  });

  it('a later start removes what a killed process left behind (a real kill -9)', async () => {
    const script = [
      `import { MountPointLedger } from ${JSON.stringify(join(process.cwd(), 'src/tools/exec/sandbox-mount-points.ts'))};`,
      `const c = new MountPointLedger(${JSON.stringify(ledgerDir)}).claim(${JSON.stringify(holders())});`,
      `process.stdout.write(c.ok ? 'claimed\\n' : 'failed\\n');`,
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await expect.poll(() => out, { timeout: 20_000, interval: 25 }).toContain('claimed');
    expect(readdirSync(root).sort()).toEqual(['.env', '.github', 'package.json']);
    // While the process lives, a start leaves its placeholders alone.
    expect(new MountPointLedger(ledgerDir).sweep()).toBe(0);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(readdirSync(root).sort()).toEqual(['.env', '.github', 'package.json']);
    expect(new MountPointLedger(ledgerDir).sweep()).toBe(4);
    expect(readdirSync(root)).toEqual([]);
    expect(records()).toEqual([]);
  });

  it('a record whose process id was reused (another start time) counts as dead', () => {
    const ledger = new MountPointLedger(ledgerDir);
    const claimed = ledger.claim(holders());
    if (!claimed.ok) throw new Error(claimed.reason);
    const [name] = records();
    const file = join(ledgerDir, name as string);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), pidStart: '1' }));
    expect(ledger.sweep()).toBe(4);
    expect(readdirSync(root)).toEqual([]);
  });

  it('fails closed when the record cannot be written, removing what it created', () => {
    writeFileSync(join(base, 'not-a-dir'), '');
    const claimed = new MountPointLedger(join(base, 'not-a-dir', 'ledger')).claim(holders());
    expect(claimed.ok).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });
});
