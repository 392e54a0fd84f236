/**
 * A hook's exit code and stdout read as Claude Code documents them, failing closed where Claude Code
 * would let the call through: every kind of answer, and every way of saying nothing usable.
 */
import { describe, expect, it } from 'vitest';
import type { HookRunResult } from '../../src/hooks/hook-process';
import { strictest, verdictOf } from '../../src/hooks/hook-output';

const exited = (
  code: number | null,
  stdout = '',
  stderr = '',
  more: Partial<HookRunResult> = {},
): HookRunResult =>
  ({
    kind: 'exited',
    code,
    signal: code === null ? 'SIGKILL' : null,
    stdout,
    stderr,
    overflow: false,
    ...more,
  }) as HookRunResult;
const json = (value: unknown) => exited(0, JSON.stringify(value));

describe('what a hook said', () => {
  it.each([
    ['nothing on stdout', exited(0), { kind: 'none' }],
    ['whitespace only', exited(0, ' \n'), { kind: 'none' }],
    [
      'permissionDecision allow',
      json({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          permissionDecisionReason: 'fine',
        },
      }),
      { kind: 'allow', reason: 'fine' },
    ],
    [
      'permissionDecision deny',
      json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } }),
      { kind: 'deny', reason: 'no rm' },
    ],
    ['permissionDecision ask', json({ hookSpecificOutput: { permissionDecision: 'ask' } }), { kind: 'ask' }],
    [
      "PermissionRequest's decision.behavior allow",
      json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
      { kind: 'allow' },
    ],
    [
      "PermissionRequest's decision.behavior deny with a message",
      json({ hookSpecificOutput: { decision: { behavior: 'deny', message: 'not on Fridays' } } }),
      { kind: 'deny', reason: 'not on Fridays' },
    ],
    ['legacy decision approve', json({ decision: 'approve', reason: 'ok' }), { kind: 'allow', reason: 'ok' }],
    ['legacy decision block', json({ decision: 'block', reason: 'nope' }), { kind: 'deny', reason: 'nope' }],
    [
      'continue: false is a stop',
      json({ continue: false, stopReason: 'halt' }),
      { kind: 'deny', reason: 'halt' },
    ],
    [
      'exit 2 blocks with stderr as the reason',
      exited(2, '{"decision":"approve"}', 'rm is not allowed\n'),
      { kind: 'deny', reason: 'rm is not allowed' },
    ],
    ['exit 2 without stderr still blocks', exited(2), { kind: 'deny' }],
    ['unknown fields are ignored', json({ suppressOutput: true, other: 1 }), { kind: 'none' }],
    [
      'a systemMessage is kept for the person',
      json({ systemMessage: 'hi' }),
      { kind: 'none', message: 'hi' },
    ],
  ])('%s', (_name, run, expected) => {
    expect(verdictOf(run, 5000)).toMatchObject(expected);
  });

  it.each([
    ['exit 1', exited(1, '', 'boom'), 'exit', /exit code 1: boom/],
    ['killed by a signal', exited(null), 'exit', /signal SIGKILL/],
    ['a timeout', { kind: 'timeout' } as HookRunResult, 'timeout', /longer than 5 s/],
    [
      'a program that cannot start',
      { kind: 'spawn_failed', message: 'ENOENT' } as HookRunResult,
      'spawn',
      /could not start/,
    ],
    ['garbage on stdout', exited(0, 'yes please'), 'bad_json', /not JSON/],
    ['a JSON array', exited(0, '[1]'), 'bad_json', /not an object/],
    ['a JSON string', exited(0, '"allow"'), 'bad_json', /not an object/],
    ['more than 64 KiB', exited(0, '{}', '', { overflow: true }), 'bad_json', /64 KiB/],
    [
      'an unknown permissionDecision',
      json({ hookSpecificOutput: { permissionDecision: 'yes' } }),
      'bad_json',
      /permissionDecision/,
    ],
    [
      'an unknown behavior',
      json({ hookSpecificOutput: { decision: { behavior: 'maybe' } } }),
      'bad_json',
      /behavior/,
    ],
    ['an unknown legacy decision', json({ decision: 'allow' }), 'bad_json', /approve or block/],
    ['hookSpecificOutput not an object', json({ hookSpecificOutput: 'allow' }), 'bad_json', /not an object/],
    [
      'a changed input (updatedInput)',
      json({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls' } } }),
      'bad_json',
      /updatedInput/,
    ],
    [
      'a changed input on a PermissionRequest allow',
      json({ hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: {} } } }),
      'bad_json',
      /updatedInput/,
    ],
  ])('%s fails (closed)', (_name, run, detail, reason) => {
    const verdict = verdictOf(run, 5000);
    expect(verdict).toMatchObject({ kind: 'failed', detail });
    expect(verdict.kind === 'failed' && verdict.reason).toMatch(reason);
  });

  it('the strictest answer counts: deny beats allow, whatever the order of the fields', () => {
    const both = json({ decision: 'approve', hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(verdictOf(both, 1000).kind).toBe('deny');
    expect(strictest([{ kind: 'allow' }, { kind: 'ask' }, { kind: 'none' }])?.kind).toBe('ask');
    expect(
      strictest([
        { kind: 'deny', reason: 'x' },
        { kind: 'failed', detail: 'exit', reason: 'y' },
      ])?.kind,
    ).toBe('failed');
    expect(strictest([])).toBeUndefined();
  });
});
