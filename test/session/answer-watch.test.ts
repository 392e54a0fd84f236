import { describe, expect, it, vi } from 'vitest';
import { PathFence } from '../../src/policy/guards/path-guard';
import type { ApprovalRequest, CoreEvent, ToolResultEnvelope } from '../../src/protocol';
import { AnswerWatch } from '../../src/session/answer-watch';
import { commandWarmUp } from '../../src/session/command-warm-up';
import { answerHooks } from '../../src/session/wiring/command-guard-loader';
import { failClosedCommandGuard, PARSER_LOADING } from '../../src/policy/command/command-guard';
import { createExecuteCommandTool } from '../../src/tools/exec/execute-command';
import { defineTool } from '../../src/tools/types';

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
};

describe('the quiet between model answers (issue 34)', () => {
  it('is quiet until an answer streams in; a card, a finished call or the turn’s end settle it', async () => {
    const watch = new AnswerWatch();
    expect(await settled(watch.quiet())).toBe(true);
    const settlingEvents: CoreEvent[] = [
      { type: 'approval_requested', request: {} as ApprovalRequest },
      { type: 'tool_finished', agentId: 'main', callId: 'c', tool: 't', result: {} as ToolResultEnvelope },
      { type: 'turn_done', agentId: 'main', text: '' },
    ];
    for (const settling of settlingEvents) {
      watch.answering();
      const quiet = watch.quiet();
      expect(await settled(quiet)).toBe(false);
      watch.onEvent({ type: 'state_changed' });
      expect(await settled(quiet)).toBe(false);
      watch.onEvent(settling);
      expect(await settled(quiet)).toBe(true);
    }
    watch.onEvent({ type: 'message_delta', agentId: 'main', text: 'hi' });
    expect(await settled(watch.quiet())).toBe(false);
  });

  it('a calm wait also needs that long since the last answer settled', async () => {
    const watch = new AnswerWatch();
    expect(await settled(watch.quiet(10_000))).toBe(true);
    watch.answering();
    watch.onEvent({ type: 'turn_done', agentId: 'main', text: '' });
    expect(await settled(watch.quiet(10_000))).toBe(false);
    expect(await settled(watch.quiet(0))).toBe(true);
    await watch.quiet(5);
  });

  it('a request going out starts the calm again: a quick answer leaves none', async () => {
    const watch = new AnswerWatch();
    expect(await settled(watch.quiet(10_000))).toBe(true);
    watch.requested();
    expect(await settled(watch.quiet(10_000))).toBe(false);
    expect(await settled(watch.quiet(0))).toBe(true);
  });

  it('the model’s hooks: a request sent starts the calm, a command tool’s name readies the judge', async () => {
    const watch = new AnswerWatch();
    const prepare = vi.fn(async () => {});
    const guard = { commands: failClosedCommandGuard(PARSER_LOADING), ready: async () => {}, prepare };
    const tools = [
      createExecuteCommandTool(),
      defineTool({ ...createExecuteCommandTool(), name: 'plain', guarded: {} }),
    ];
    const hooks = answerHooks(tools, guard, watch);
    hooks.onSent?.();
    expect(await settled(watch.quiet(10_000))).toBe(false);
    hooks.onToolNamed?.('plain');
    expect(prepare).not.toHaveBeenCalled();
    expect(await settled(watch.quiet(0))).toBe(false);
    hooks.onToolNamed?.('execute_command');
    expect(prepare).toHaveBeenCalledTimes(1);
    watch.onEvent({ type: 'approval_requested', request: {} as ApprovalRequest });
    expect(await settled(watch.quiet(0))).toBe(true);
  });

  it('the command warm-up takes no step while an answer is handled, and goes on once it settles', async () => {
    const watch = new AnswerWatch();
    const order: string[] = [];
    const start = commandWarmUp({
      prepareJudge: async () => void order.push('judge'),
      sandboxChecked: async () => {
        order.push('sandbox');
        watch.answering();
      },
      tools: [defineTool({ ...createExecuteCommandTool(), warm: () => void order.push('warm') })],
      root: '/nonexistent',
      fence: new PathFence('/tmp'),
      quiet: () => watch.quiet(),
      closed: () => false,
    });
    const done = start();
    await vi.waitFor(() => expect(order).toEqual(['judge', 'sandbox']));
    expect(await settled(done)).toBe(false);
    expect(order).toEqual(['judge', 'sandbox']);
    watch.onEvent({ type: 'turn_done', agentId: 'main', text: '' });
    await done;
    expect(order).toEqual(['judge', 'sandbox', 'warm']);
  });

  it('an answer that comes before the think time is up: no step runs until its card', async () => {
    const watch = new AnswerWatch();
    const order: string[] = [];
    const start = commandWarmUp({
      prepareJudge: async () => void order.push('judge'),
      sandboxChecked: async () => void order.push('sandbox'),
      tools: [],
      root: '/nonexistent',
      fence: new PathFence('/tmp'),
      quiet: () => watch.quiet(),
      closed: () => false,
    });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const done = start();
    watch.answering();
    // The think time is over; the answer is still being handled, so no step starts.
    vi.advanceTimersByTime(1000);
    vi.useRealTimers();
    expect(await settled(done)).toBe(false);
    expect(order).toEqual([]);
    watch.onEvent({ type: 'approval_requested', request: {} as ApprovalRequest });
    await done;
    expect(order).toEqual(['judge', 'sandbox']);
  });
});
