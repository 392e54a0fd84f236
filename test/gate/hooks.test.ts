/**
 * The hooks at the gate, each invariant with real hook processes: a PreToolUse hook only tightens (its
 * allow loosens nothing, its ask beats a grant, its deny and its failure refuse), nothing a guard or a
 * deny rule refuses reaches a hook, a PermissionRequest hook answers only a tool card and only where a
 * person could (never a high-risk one), and every answer is audited as the hook's.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HooksConfig } from '../../src/config/hooks-schema';
import { compileHooks } from '../../src/hooks/hook-config';
import { HookSet } from '../../src/hooks/hook-set';
import { permissionRequest } from '../../src/hooks/permission-request';
import { preToolUse } from '../../src/hooks/pre-tool-use';
import { processAlive } from '../../src/os/process';
import { createCoreTools } from '../../src/tools/index';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

const aliases = new Map(
  createCoreTools().flatMap((t) => (t.hookAlias ? [[t.name, t.hookAlias] as const] : [])),
);

let h: GateHarness | undefined;
let scratch: string | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A shell command that records its stdin in `log` (one JSON line per run), then prints `out` and exits `code`. */
function hookCommand(log: string, out: unknown, code = 0, stderr = ''): string {
  const text = out === undefined ? '' : typeof out === 'string' ? out : JSON.stringify(out);
  return `cat >> ${log}; printf '%s' '${text}'; printf '%s' '${stderr}' >&2; exit ${code}`;
}

/** A gate whose session has these hooks of the person's; `log` holds what each hook was given. */
function hooked(config: HooksConfig, options: HarnessOptions = {}) {
  // The hooks run in the harness's project, which exists once the harness does.
  let current: HookSet | undefined;
  h = createGateHarness({
    ...options,
    preToolUse: (call, policy) => (current ? preToolUse(current, call, policy) : undefined),
    screen: (request) => (current ? permissionRequest(current, request) : undefined),
  });
  const compiled = compileHooks(config, 'user', '/home/me/.warden/config.json');
  if (!compiled.ok) throw new Error(compiled.error);
  current = new HookSet({
    root: h.root,
    sessionId: 'sess-test',
    transcriptPath: '/tmp/none.jsonl',
    user: compiled.hooks,
    aliasOf: (tool) => aliases.get(tool),
  });
  return h;
}

function logFile(): string {
  scratch ??= realpathSync(mkdtempSync(join(tmpdir(), 'warden-hooklog-')));
  return join(scratch, 'hook-input.jsonl');
}
const inputs = (log: string): Record<string, unknown>[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

const allow = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
const ask = {
  hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'look at this one' },
};

describe('PreToolUse: a hook only tightens', () => {
  it('its allow on a call the policy asks for still asks: a card, and nothing runs before the person', async () => {
    const log = logFile();
    const g = hooked({ PreToolUse: [{ matcher: 'Write', command: hookCommand(log, allow), name: 'yes' }] });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(request.tool).toBe('write_file');
    expect(g.read('a.txt')).toBeUndefined();
    // It was given the call as Claude Code names it, and warden's own facts beside.
    expect(inputs(log)[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      warden_tool: 'write_file',
      tool_input: { path: 'a.txt', file_path: join(g.root, 'a.txt'), content: 'x' },
      session_id: 'sess-test',
      cwd: g.root,
      request_id: null,
      args_hash: request.argsHash,
      risk: 'medium',
      policy_decision: 'ask',
    });
    g.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(g.lastOutcome('write_file')).toMatchObject({ approver: 'human' });
  });

  it('its ask turns an allowed call into a card', async () => {
    const log = logFile();
    const g = hooked({ PreToolUse: [{ matcher: 'Read', command: hookCommand(log, ask), name: 'look' }] });
    g.write('a.txt', 'hello');
    const read = g.call('read_file', { path: 'a.txt' });
    const card = await g.nextRequest();
    expect(card).toMatchObject({ tool: 'read_file', rule: { id: 'hook:look', source: 'hook' } });
    expect(card.explanation).toContain('look at this one');
    g.gate.decide(card.id, { kind: 'approve' });
    expect((await read).status).toBe('executed');
  });

  it("its ask beats a grant: the person's approve-all does not answer for a call the hook wants seen", async () => {
    const log = logFile();
    const g = hooked({ PreToolUse: [{ matcher: 'Write', command: hookCommand(log, ask), name: 'look' }] });
    const first = g.call('write_file', { path: 'a.txt', content: 'x' });
    const card = await g.nextRequest();
    const scope = card.grantOptions.find((o) => o.match.kind === 'tool');
    if (!scope) throw new Error('no tool-wide scope offered');
    g.gate.decide(card.id, { kind: 'approve_all', scope });
    expect((await first).status).toBe('executed');
    expect(g.grants.list()).toHaveLength(1);
    const second = g.call('write_file', { path: 'b.txt', content: 'y' });
    const again = await g.nextRequest();
    expect(again.tool).toBe('write_file');
    expect(g.read('b.txt')).toBeUndefined();
    g.gate.decide(again.id, { kind: 'reject', reason: 'no' });
    expect((await second).status).toBe('rejected');
  });

  it('an approve-all on one card does not settle a waiting card the hook asked for', async () => {
    const log = logFile();
    const g = hooked({ PreToolUse: [{ matcher: 'Write', command: hookCommand(log, ask), name: 'look' }] });
    const first = g.call('write_file', { path: 'a.txt', content: 'x' });
    const second = g.call('write_file', { path: 'b.txt', content: 'y' });
    // The two hooks run side by side: either card may be asked first.
    const card = (await g.waitForPending(2)).find((r) => (r.args as { path?: string }).path === 'a.txt');
    const scope = card?.grantOptions.find((o) => o.match.kind === 'tool');
    if (!card || !scope) throw new Error('no tool-wide scope offered');
    g.gate.decide(card.id, { kind: 'approve_all', scope });
    expect((await first).status).toBe('executed');
    expect(g.gate.pending()).toHaveLength(1);
    expect(g.read('b.txt')).toBeUndefined();
    const rest = g.gate.pending()[0];
    if (rest) g.gate.decide(rest.id, { kind: 'skip' });
    expect((await second).status).toBe('skipped');
  });

  it('its deny (exit 2) refuses an allowed call, with its stderr as the reason, audited as the hook', async () => {
    const log = logFile();
    const g = hooked(
      {
        PreToolUse: [
          { matcher: 'Write', command: hookCommand(log, undefined, 2, 'not on Fridays'), name: 'friday' },
        ],
      },
      { mode: 'auto-edit' },
    );
    const result = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result).toMatchObject({ status: 'blocked', by: 'hook', rule: 'hook:friday' });
    expect(result.reason).toContain('not on Fridays');
    expect(g.read('a.txt')).toBeUndefined();
    expect(g.ran()).toEqual([]);
    expect(g.lastOutcome('write_file')).toMatchObject({
      approver: 'hook:friday',
      rule: 'hook:friday',
      outcome: 'blocked',
    });
  });

  it.each([
    ['an exit code other than 2', (log: string) => hookCommand(log, undefined, 1, 'crashed'), 'exit', 30],
    ['garbage on stdout', (log: string) => hookCommand(log, 'sure, go ahead'), 'bad_json', 30],
    ['a timeout', (log: string) => `cat >> ${log}; sleep 30`, 'timeout', 1],
  ])('%s fails closed: the call is refused as hook_failed', async (_name, command, detail, timeout) => {
    const log = logFile();
    const g = hooked(
      { PreToolUse: [{ command: command(log), timeout, name: 'broken' }] },
      { mode: 'auto-edit' },
    );
    const result = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result).toMatchObject({ status: 'blocked', by: 'hook', rule: 'hook:broken' });
    expect(result.reason).toMatch(new RegExp(`^hook_failed \\(${detail}\\)`));
    expect(g.read('a.txt')).toBeUndefined();
    expect(inputs(log)).toHaveLength(1);
  });

  it('what a guard or a deny rule refuses never reaches a hook (either kind); a matcher that does not fit runs no hook', async () => {
    const log = logFile();
    const approveAll = { hookSpecificOutput: { decision: { behavior: 'allow' } } };
    const g = hooked(
      {
        PreToolUse: [{ command: hookCommand(log, allow), name: 'all' }],
        PermissionRequest: [{ command: hookCommand(log, approveAll), name: 'approve-all' }],
      },
      { rules: [{ tool: 'execute_command', decision: 'deny', when: { command: 'rm *' } }] },
    );
    expect((await g.call('write_file', { path: '../outside.txt', content: 'x' })).status).toBe('blocked');
    expect((await g.call('execute_command', { command: 'rm -f a' })).status).toBe('blocked');
    // Neither the PreToolUse nor the PermissionRequest hook ever saw them: a hook cannot approve past these.
    expect(inputs(log)).toEqual([]);
    const bashOnly = logFile().replace('.jsonl', '-bash.jsonl');
    h?.cleanup();
    const g2 = hooked(
      { PreToolUse: [{ matcher: 'Bash', command: hookCommand(bashOnly, allow) }] },
      { mode: 'auto-edit' },
    );
    expect((await g2.call('write_file', { path: 'a.txt', content: 'x' })).status).toBe('executed');
    expect(inputs(bashOnly)).toEqual([]);
  });
});

describe('PermissionRequest: a hook answers a card where a person could', () => {
  const approve = {
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  };

  it('its allow approves the card with nobody there: the file lands, audited as hook:<name>', async () => {
    const log = logFile();
    const g = hooked(
      { PermissionRequest: [{ matcher: 'Write', command: hookCommand(log, approve), name: 'ok-writes' }] },
      { approver: false },
    );
    const result = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result.status).toBe('executed');
    expect(g.read('a.txt')).toBe('x');
    const outcome = g.lastOutcome('write_file');
    expect(outcome).toMatchObject({
      approver: 'hook:ok-writes',
      decidedBy: { channel: 'hook', hook: 'ok-writes' },
    });
    expect(inputs(log)[0]).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Write',
      request_id: outcome?.requestId,
      risk: 'medium',
      rule: { source: 'builtin' },
    });
    // Decided before anyone was shown it: no card was announced.
    expect(g.events.some((e) => e.type === 'requested')).toBe(false);
  });

  it('its deny rejects the card with its reason; the model is told it was the hook', async () => {
    const log = logFile();
    const deny = { hookSpecificOutput: { decision: { behavior: 'deny', message: 'use src/' } } };
    const g = hooked({ PermissionRequest: [{ command: hookCommand(log, deny), name: 'layout' }] });
    const result = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result).toMatchObject({ status: 'rejected', by: 'hook', rule: 'hook:layout', reason: 'use src/' });
    expect(g.read('a.txt')).toBeUndefined();
    expect(g.lastOutcome('write_file')).toMatchObject({ approver: 'hook:layout', outcome: 'rejected' });
  });

  it('a high-risk card is never approved by a hook: it waits for a person (and fails closed with nobody there)', async () => {
    const log = logFile();
    const config = { PermissionRequest: [{ command: hookCommand(log, approve), name: 'yes' }] };
    const g = hooked(config);
    g.write('package.json', '{}');
    const result = g.call('write_file', { path: 'package.json', content: '{"scripts":{}}' });
    const card = await g.nextRequest();
    expect(card.risk.level).toBe('high');
    expect(card.explanation).toMatch(/hook yes approved it, but it needs a person/);
    expect(g.read('package.json')).toBe('{}');
    g.gate.decide(card.id, { kind: 'reject', reason: 'not now' });
    expect((await result).status).toBe('rejected');
    h?.cleanup();
    const alone = hooked(config, { approver: false });
    alone.write('package.json', '{}');
    const unattended = await alone.call('write_file', { path: 'package.json', content: '{"x":1}' });
    expect(unattended.status).toBe('error');
    expect(unattended.reason).toMatch(/^no_approver/);
    expect(alone.read('package.json')).toBe('{}');
  });

  it('a hook that fails never approves: the card goes to the person, or fails as hook_failed', async () => {
    const log = logFile();
    const config = { PermissionRequest: [{ command: hookCommand(log, 'approve!'), name: 'garbled' }] };
    const g = hooked(config);
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const card = await g.nextRequest();
    expect(card.explanation).toMatch(/hook_failed \(bad_json\)/);
    g.gate.decide(card.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(g.lastOutcome('write_file')).toMatchObject({ approver: 'human' });
    h?.cleanup();
    const alone = hooked(config, { approver: false });
    const unattended = await alone.call('write_file', { path: 'a.txt', content: 'x' });
    expect(unattended.reason).toMatch(/^hook_failed/);
    expect(alone.read('a.txt')).toBeUndefined();
  });

  it('its ask, and cards that are a conversation (a question, a plan), are left to the person', async () => {
    const log = logFile();
    const g = hooked({
      PermissionRequest: [
        { command: hookCommand(log, { hookSpecificOutput: { permissionDecision: 'ask' } }) },
      ],
    });
    const write = g.call('write_file', { path: 'a.txt', content: 'x' });
    const card = await g.nextRequest();
    expect(card.tool).toBe('write_file');
    g.gate.decide(card.id, { kind: 'skip' });
    await write;
    expect(inputs(log)).toHaveLength(1);
    const question = g.call('ask_user', { question: 'which?' });
    const asked = await g.nextRequest();
    expect(asked.preview.kind).toBe('question');
    g.gate.decide(asked.id, { kind: 'answer', text: 'that one' });
    await question;
    expect(inputs(log)).toHaveLength(1);
  });

  it('while its hooks look at a card, nobody is shown it; a cancelled turn stops them and nothing runs', async () => {
    const log = logFile();
    const pid = `${log}.pid`;
    const g = hooked({
      PermissionRequest: [{ command: `echo $$ > ${pid}; cat >> ${log}; sleep 30`, name: 'slow' }],
    });
    const abort = new AbortController();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' }, { signal: abort.signal });
    await expect.poll(() => inputs(log).length).toBe(1);
    expect(g.gate.pending()).toEqual([]);
    expect(g.events.some((e) => e.type === 'requested')).toBe(false);
    abort.abort();
    expect((await result).status).toBe('cancelled');
    const shell = Number(readFileSync(pid, 'utf8'));
    await expect.poll(() => processAlive(shell)).toBe(false);
    expect(g.read('a.txt')).toBeUndefined();
  });

  it("an answer a person gave elsewhere comes before the hook's: the hook does not run", async () => {
    const log = logFile();
    const deny = { hookSpecificOutput: { decision: { behavior: 'deny', message: 'no' } } };
    const told: unknown[] = [];
    const g = hooked(
      { PermissionRequest: [{ command: hookCommand(log, deny), name: 'strict' }] },
      {
        answerFor: () => [
          {
            decision: { kind: 'approve' },
            by: { channel: 'cli', user: 'me' },
            done: (result) => told.push(result),
          },
        ],
      },
    );
    const result = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result.status).toBe('executed');
    expect(told).toEqual([{ ok: true }]);
    expect(inputs(log)).toEqual([]);
    expect(g.lastOutcome('write_file')).toMatchObject({ approver: 'human', decidedBy: { channel: 'cli' } });
  });
});
