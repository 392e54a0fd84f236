/**
 * The managed layer through the real binary: a folder named by WARDEN_SYSTEM_DIR holding a
 * config.json and a policy.json that nothing the user, the project or the model does can loosen. Each
 * test that shows a refusal also shows the run that goes through without the managed file, so the
 * refusal is the managed layer's doing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLines } from '../helpers/audit-lines';
import { fakeModel, headlessWarden, type Places, tempPlaces, useCleanup } from '../helpers/headless-run';

const later = useCleanup();

const writeA = [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }];
const allowWrites = { rules: [{ id: 'mine', tool: 'write_file', decision: 'allow' }] };

/** Writes the files of a folder (JSON values stringified), making folders on the way. */
function put(dir: string, files: Record<string, unknown>): string {
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

/** A project and home, and a managed folder beside them holding `managed`. */
function places(name: string, managed: Record<string, unknown> = {}): Places & { system: string } {
  const at = tempPlaces(later, name);
  return { ...at, system: put(join(at.home, 'system'), managed) };
}

const withSystem = (at: { system: string }) => ({ env: { WARDEN_SYSTEM_DIR: at.system } });

describe('the managed layer, through the binary', () => {
  it("a managed deny beats the user's allow and a trusted project's allow", async () => {
    const at = places('deny');
    put(at.home, { 'policy.json': allowWrites });
    put(at.root, { '.warden/policy.json': { rules: [{ tool: 'write_file', decision: 'allow' }] } });
    const args = ['--trust-project', '-p', 'write a.txt'];
    // Without the managed file the user's allow runs it.
    const free = await headlessWarden(at, await fakeModel(later, writeA), args, withSystem(at));
    expect(free.code, free.stderr).toBe(0);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('hi\n');

    const deny = { id: 'no-a', tool: 'write_file', when: { path: 'a.txt' }, decision: 'deny' };
    put(at.system, { 'policy.json': { rules: [deny] } });
    writeFileSync(join(at.root, 'a.txt'), 'before\n');
    const run = await headlessWarden(at, await fakeModel(later, writeA), args, withSystem(at));
    expect(run.code).toBe(3);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('before\n');
    const outcome = auditLines(at.home)
      .filter((r) => r.tool === 'write_file' && r.phase === 'outcome')
      .at(-1);
    expect(outcome).toMatchObject({ outcome: 'blocked', rule: 'no-a', decision: 'deny' });
  });

  it('a managed ask is not relaxed by auto mode nor covered by your allow: the call reaches a person', async () => {
    const at = places('ask');
    const free = await headlessWarden(
      at,
      await fakeModel(later, writeA),
      ['--mode', 'auto', '-p', 'write a.txt'],
      withSystem(at),
    );
    expect(free.code, free.stderr).toBe(0);
    expect(existsSync(join(at.root, 'a.txt'))).toBe(true);

    put(at.system, { 'policy.json': { rules: [{ id: 'ask-writes', tool: 'write_file', decision: 'ask' }] } });
    put(at.home, { 'policy.json': allowWrites });
    const run = await headlessWarden(
      at,
      await fakeModel(later, [
        { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'x' } }] },
      ]),
      ['--mode', 'auto', '-p', 'write b.txt'],
      withSystem(at),
    );
    // Headless has nobody to ask: the card fails closed as no_approver.
    expect(run.code).toBe(3);
    expect(existsSync(join(at.root, 'b.txt'))).toBe(false);
    const asked = auditLines(at.home)
      .filter((r) => r.tool === 'write_file' && r.phase === 'outcome')
      .at(-1);
    expect(asked).toMatchObject({ decision: 'ask', rule: 'ask-writes' });
    expect(asked.reason).toContain('no_approver');
  });

  it('lockModes refuses --mode auto and WARDEN_MODE=auto with a clear message (usage, exit 2)', async () => {
    const at = places('lock', { 'config.json': { lockModes: ['auto'] } });
    const server = await fakeModel(later, []);
    const flag = await headlessWarden(at, server, ['--mode', 'auto', '-p', 'hi'], withSystem(at));
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--mode auto: mode "auto" is locked by the managed config');
    expect(flag.stderr).toContain(join(at.system, 'config.json'));
    const env = await headlessWarden(at, server, ['-p', 'hi'], {
      env: { WARDEN_SYSTEM_DIR: at.system, WARDEN_MODE: 'auto' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('WARDEN_MODE=auto');
    // A mode it does not lock starts.
    const plan = await headlessWarden(at, server, ['--mode', 'plan', '-p', 'hi'], withSystem(at));
    expect(plan.code, plan.stderr).toBe(0);
    expect(server.requests.length).toBe(1);
  });

  it('allowManagedRulesOnly: your allow rule does not count, so the write asks', async () => {
    const at = places('rules-only');
    put(at.home, { 'policy.json': allowWrites });
    const free = await headlessWarden(
      at,
      await fakeModel(later, writeA),
      ['-p', 'write a.txt'],
      withSystem(at),
    );
    expect(free.code, free.stderr).toBe(0);
    expect(
      auditLines(at.home)
        .filter((r) => r.phase === 'outcome')
        .at(-1),
    ).toMatchObject({ rule: 'mine' });

    put(at.system, { 'config.json': { allowManagedRulesOnly: true } });
    const bWrite = [{ toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'x' } }] }];
    const run = await headlessWarden(
      at,
      await fakeModel(later, bWrite),
      ['-p', 'write b.txt'],
      withSystem(at),
    );
    expect(run.code).toBe(3);
    expect(existsSync(join(at.root, 'b.txt'))).toBe(false);
    expect(
      auditLines(at.home)
        .filter((r) => r.phase === 'outcome')
        .at(-1).rule,
    ).not.toBe('mine');
  });

  it.each([
    ['config.json', { lockModes: 'auto' }, 'lockModes'],
    ['config.json', '{ "mode": ', 'invalid JSON'],
    ['policy.json', { rules: [{ tool: 'write_file', decision: 'maybe' }] }, 'rules.0.decision'],
  ])('a broken managed %s refuses to start (%s)', async (file, content, says) => {
    const at = places('broken', { [file]: content });
    const server = await fakeModel(later, writeA);
    const run = await headlessWarden(at, server, ['-p', 'write a.txt'], withSystem(at));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(join(at.system, file));
    expect(run.stderr).toContain(says);
    expect(server.requests.length).toBe(0);
  });

  it("a user's config may not set lockModes: an error naming the file", async () => {
    const at = places('user-lock');
    put(at.home, { 'config.json': { lockModes: ['plan'] } });
    const run = await headlessWarden(at, await fakeModel(later, []), ['-p', 'hi'], withSystem(at));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(at.home, 'config.json')}: lockModes: only the managed config`);
  });

  it('the model cannot write the managed folder (inside the project here): not with a tool, not with a command', async () => {
    const at = tempPlaces(later, 'managed-write');
    const deny = { id: 'no-rm', tool: 'execute_command', when: { command: 'rm *' }, decision: 'deny' };
    const system = put(join(at.root, 'managed'), { 'policy.json': { rules: [deny] } });
    const before = readFileSync(join(system, 'policy.json'), 'utf8');
    const loosen = JSON.stringify({ rules: [] });
    const script = [
      { toolCalls: [{ name: 'write_file', args: { path: 'managed/policy.json', content: loosen } }] },
      {
        toolCalls: [{ name: 'execute_command', args: { command: `echo '${loosen}' > managed/policy.json` } }],
      },
    ];
    const server = await fakeModel(later, script);
    const run = await headlessWarden(at, server, ['--mode', 'auto', '-p', 'loosen it'], {
      env: { WARDEN_SYSTEM_DIR: system },
    });
    expect(run.code, run.stderr).toBe(3);
    expect(readFileSync(join(system, 'policy.json'), 'utf8')).toBe(before);
    const outcomes = auditLines(at.home).filter((r) => r.phase === 'outcome');
    for (const tool of ['write_file', 'execute_command'])
      expect(outcomes.find((r) => r.tool === tool)).toMatchObject({ outcome: 'blocked', decision: 'deny' });
    expect(run.stderr).toContain('inside the managed policy folder');
  });
});
