/**
 * A real session under a managed layer: locked modes are refused at run time (and listed for the
 * mode key), `/policy` shows the managed rules as locked with their file and the user's as ignored
 * under `allowManagedRulesOnly`, and neither "don't ask again" nor a rule offer saves a rule that
 * would not count.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagedSettings } from '../../src/config/managed';
import { createDemoModel } from '../../src/llm/demo-model';
import { createSession } from '../../src/session/session';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A managed folder holding `policy` as its policy.json, and the settings a loader would give. */
function managed(over: Partial<ManagedSettings> = {}, policy?: unknown): ManagedSettings {
  const dir = mkdtempSync(join(tmpdir(), 'warden-managed-session-'));
  dirs.push(dir);
  if (policy) writeFileSync(join(dir, 'policy.json'), JSON.stringify(policy));
  return {
    dir,
    configPath: join(dir, 'config.json'),
    policyPath: join(dir, 'policy.json'),
    lockModes: [],
    rulesOnly: false,
    hooksOnly: false,
    approverDirs: [join(dir, 'approvers')],
    ...over,
  };
}

const notices = (s: SessionHarness) =>
  s.events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])).join('\n');

describe('a session under a managed layer', () => {
  it('refuses a locked mode at run time, says which file locks it, and lists the locked modes', async () => {
    const m = managed({ lockModes: ['auto'] });
    h = await startSession([], { session: { managed: m } });
    expect(h.session.client.snapshot().lockedModes).toEqual(['auto']);
    h.session.client.send({ type: 'set_mode', mode: 'auto' });
    expect(h.session.client.snapshot().mode).toBe('manual');
    expect(notices(h)).toContain(`Mode auto is locked by the managed config ${m.configPath} (lockModes)`);
    h.session.client.send({ type: 'set_mode', mode: 'plan' });
    expect(h.session.client.snapshot().mode).toBe('plan');
  });

  it('/policy lists the managed rules as locked with their file, and your rules as ignored when only managed rules count', async () => {
    const m = managed(
      { rulesOnly: true },
      {
        rules: [
          { id: 'no-push', tool: 'execute_command', when: { command: 'git push *' }, decision: 'deny' },
        ],
      },
    );
    h = await startSession([], {
      session: { managed: m },
      homeFiles: { 'policy.json': JSON.stringify({ rules: [{ tool: 'write_file', decision: 'allow' }] }) },
    });
    const sources = h.session.client.snapshot().policy?.sources ?? [];
    expect(sources.find((s) => s.source === 'managed')).toEqual({
      source: 'managed',
      path: m.policyPath,
      rules: 1,
      locked: true,
      only: true,
      lines: ['deny execute_command when command "git push *" — no-push'],
    });
    expect(sources.find((s) => s.source === 'user')).toMatchObject({ rules: 0, ignored: 1 });
  });

  it("under allowManagedRulesOnly your allow does not count, and don't ask again saves nothing (nor approves)", async () => {
    const m = managed({ rulesOnly: true });
    const userPolicy = JSON.stringify({ rules: [{ tool: 'write_file', decision: 'allow' }] });
    h = await startSession([{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] }], {
      session: { managed: m },
      homeFiles: { 'policy.json': userPolicy },
    });
    void h.session.run('write a.txt');
    const request = await h.nextRequest();
    expect(request.rule.source).toBe('builtin');
    const scope = request.grantOptions[0];
    if (!scope) throw new Error('a builtin ask offers approve-all');
    h.session.client.send({
      type: 'decide',
      id: request.id,
      decision: { kind: 'approve_all', scope },
      save: 'user',
    });
    expect(notices(h)).toContain('allows its own rules only (allowManagedRulesOnly)');
    expect(h.session.client.snapshot().pending.map((r) => r.id)).toEqual([request.id]);
    expect(readFileSync(join(h.home, 'policy.json'), 'utf8')).toBe(userPolicy);
    h.decide(request.id, { kind: 'reject', reason: 'no' });
  });

  it('without the managed layer the same allow runs the write (the test above can fail)', async () => {
    const userPolicy = JSON.stringify({ rules: [{ tool: 'write_file', decision: 'allow' }] });
    h = await startSession([{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] }], {
      session: { managed: managed() },
      homeFiles: { 'policy.json': userPolicy },
    });
    await h.session.run('write a.txt');
    expect(readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('x');
  });

  it('a broken approvers folder stops the session from starting', async () => {
    const m = managed();
    mkdirSync(join(m.dir, 'approvers'));
    writeFileSync(join(m.dir, 'approvers', 'bob.pub'), 'not a key');
    const root = mkdtempSync(join(tmpdir(), 'warden-managed-root-'));
    const home = mkdtempSync(join(tmpdir(), 'warden-managed-home-'));
    dirs.push(root, home);
    const start = createSession({
      ...{ root, home, model: createDemoModel(), mode: 'manual', sandbox: 'off', managed: m },
      ...{ approvalTimeoutSec: 60, maxStepsPerTurn: 5, contextWindowTokens: 10_000 },
    });
    await expect(start).rejects.toThrow(join(m.dir, 'approvers', 'bob.pub'));
  });
});
