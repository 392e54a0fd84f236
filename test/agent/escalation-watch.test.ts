import { describe, expect, it } from 'vitest';
import { FailureWatch, escalationAnswerOf, isFailure } from '../../src/agent/escalation';
import { AgentPause } from '../../src/agent/pause';
import type { ToolResultEnvelope } from '../../src/protocol';

const ok: ToolResultEnvelope = { status: 'executed', output: 'fine' };
const err: ToolResultEnvelope = { status: 'error', by: 'tool', reason: 'ENOENT' };
const exit1: ToolResultEnvelope = { status: 'executed', output: 'boom', data: { exitCode: 1 } };
const exit0: ToolResultEnvelope = { status: 'executed', output: '', data: { exitCode: 0 } };
const blocked: ToolResultEnvelope = { status: 'blocked', by: 'guard', reason: 'fence' };
const rejected: ToolResultEnvelope = { status: 'rejected', by: 'user', retry: true };
const skipped: ToolResultEnvelope = { status: 'skipped' };

describe('isFailure', () => {
  it.each<[string, ToolResultEnvelope, boolean]>([
    ['an error', err, true],
    ['a block', blocked, true],
    ['a command that exited 1', exit1, true],
    ['a command that exited 0', exit0, false],
    ['a plain success', ok, false],
    ['a rejection (counted apart)', rejected, false],
  ])('%s → %s', (_name, result, want) => expect(isFailure(result)).toBe(want));
});

describe('FailureWatch: the hard rule (3 failures in a row, 2 similar rejections)', () => {
  /** One step per result. */
  const run = (results: [ToolResultEnvelope, string?][]) => {
    const watch = new FailureWatch({ failures: 3, rejections: 2 });
    return results.map(
      ([r, key], i) => watch.observeStep([{ line: `call ${i}`, result: r, similarKey: key }]) ?? null,
    );
  };
  it.each<[string, [ToolResultEnvelope, string?][], (string | null)[]]>([
    ['three failures trip on the third', [[err], [exit1], [blocked]], [null, null, 'failures']],
    [
      'a success in between resets the streak',
      [[err], [err], [ok], [err], [err]],
      [null, null, null, null, null],
    ],
    ['skips neither count nor reset', [[err], [skipped], [err], [err]], [null, null, null, 'failures']],
    [
      'two rejections of the same key trip',
      [
        [rejected, 'k'],
        [rejected, 'k'],
      ],
      [null, 'rejections'],
    ],
    [
      'rejections of different keys do not',
      [
        [rejected, 'a'],
        [rejected, 'b'],
      ],
      [null, null],
    ],
  ])('%s', (_name, results, want) => expect(run(results)).toEqual(want));

  it('the card says what was tried (last 5) and what is needed', () => {
    const watch = new FailureWatch({ failures: 3, rejections: 2 });
    for (let i = 0; i < 7; i++) watch.observeStep([{ line: `read_file f${i}`, result: err }]);
    const card = watch.card('failures', 'find the config', 50);
    expect(card.tried.map((t) => t.call)).toEqual([
      'read_file f2',
      'read_file f3',
      'read_file f4',
      'read_file f5',
      'read_file f6',
    ]);
    expect(card.tried[0]?.result).toBe('error: ENOENT');
    expect(card.needs).toMatch(/Its calls failed 3 times in a row \(the last: read_file f6\)/);
    watch.reset();
    expect(watch.observeStep([{ line: 'x', result: err }])).toBeUndefined();
  });

  it('a failures card lists the failed attempts, not the successes before them (issue 33)', () => {
    const watch = new FailureWatch({ failures: 3, rejections: 2 });
    watch.observeStep([{ line: 'npm test', result: ok }]);
    watch.observeStep([{ line: 'edit_file a', result: ok }]);
    for (let i = 0; i < 3; i++) watch.observeStep([{ line: `read_file f${i}`, result: err }]);
    expect(watch.card('failures', 'g', 50).tried.map((t) => t.call)).toEqual([
      'read_file f0',
      'read_file f1',
      'read_file f2',
    ]);
  });

  it('one step of many calls keeps its last 5 for the card, after what earlier steps left', () => {
    const watch = new FailureWatch({ failures: 1, rejections: 2 });
    watch.observeStep([{ line: 'earlier', result: err }]);
    watch.observeStep(Array.from({ length: 3 }, (_, i) => ({ line: `a${i}`, result: err })));
    expect(watch.card('failures', 'g', 50).tried.map((t) => t.call)).toEqual(['earlier', 'a0', 'a1', 'a2']);
    const trigger = watch.observeStep(
      Array.from({ length: 1000 }, (_, i) => ({ line: `b${i}`, result: i === 0 ? err : ok })),
    );
    // A success in the step: it did not fail, however many calls it held.
    expect(trigger).toBeUndefined();
    expect(watch.card('failures', 'g', 50).tried.map((t) => t.call)).toEqual([
      'b995',
      'b996',
      'b997',
      'b998',
      'b999',
    ]);
  });

  it('several calls of one answer are one attempt: a step with a success does not fail', () => {
    const watch = new FailureWatch({ failures: 3, rejections: 2 });
    const step = (...results: ToolResultEnvelope[]) =>
      watch.observeStep(results.map((result, i) => ({ line: `c${i}`, result })));
    expect(step(err, err, err, err)).toBeUndefined();
    expect(step(err, ok)).toBeUndefined();
    expect(step(err)).toBeUndefined();
    expect(step(err)).toBeUndefined();
    expect(step(blocked)).toBe('failures');
  });

  it('a call nobody could decide on (headless, input closed) is not a failure', () => {
    const nobody: ToolResultEnvelope = {
      status: 'error',
      by: 'gate',
      reason: 'no_approver: No one is there.',
    };
    const schema: ToolResultEnvelope = { status: 'error', by: 'gate', reason: 'Invalid arguments for x' };
    expect(isFailure(nobody)).toBe(false);
    expect(isFailure(schema)).toBe(true);
  });

  it('reads only a well-formed answer', () => {
    expect(escalationAnswerOf({ escalation: { choice: 'retry', instruction: 'x' } })).toEqual({
      choice: 'retry',
      instruction: 'x',
    });
    expect(escalationAnswerOf({ escalation: { choice: 'approve' } })).toBeUndefined();
    expect(escalationAnswerOf('retry')).toBeUndefined();
  });
});

describe('AgentPause', () => {
  it('holds a paused agent until resume, lets others through, and an abort releases it', async () => {
    const pause = new AgentPause();
    pause.pause('a');
    const signal = new AbortController().signal;
    let released = false;
    const held = pause.hold('a', signal).then(() => {
      released = true;
    });
    await pause.hold('b', signal);
    await Promise.resolve();
    expect(released).toBe(false);
    expect(pause.state()).toEqual({ all: false, agents: ['a'] });
    expect(pause.resume()).toBe(true);
    await held;
    expect(released).toBe(true);
    pause.pause();
    const abort = new AbortController();
    const aborted = pause.hold('c', abort.signal);
    abort.abort();
    await aborted;
    expect(pause.state()).toEqual({ all: true, agents: [] });
  });

  it('keeps what the person said per agent, bounded, until drained', () => {
    const pause = new AgentPause();
    pause.tell(['a', 'b', 'a'], 'x'.repeat(10_000));
    expect(pause.drain('a')).toHaveLength(1);
    expect(pause.drain('a')).toEqual([]);
    expect(pause.drain('b')[0]?.length).toBe(4000);
  });
});
