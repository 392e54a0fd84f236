/**
 * Tools declare what the gate, the policy and the session used to know by name: `interactive`,
 * `forSubAgents`, `autoEditable`, `preview` and `summary`. A tool with any name gets the behaviour
 * by declaring it (issue 12: adding a tool = one file + its default rule).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callLine } from '../../src/text/call-line';
import { type AnyTool, defineTool } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

const tool = (over: Partial<AnyTool> & { name: string }): AnyTool =>
  defineTool({
    description: over.name,
    schema: z.strictObject({ text: z.string() }),
    kind: 'interact',
    execute: async (a: { text: string }) => ({ ok: true, output: a.text }),
    ...over,
  });

describe('tools declare themselves', () => {
  it('interactive: a tool of any name always asks, even in auto mode, and is never offered approve-all', async () => {
    h = createGateHarness({
      mode: 'auto',
      tools: [tool({ name: 'confirm_choice', interactive: true })],
      rules: [{ tool: 'confirm_choice', decision: 'allow' }],
    });
    const result = h.call('confirm_choice', { text: 'hi' });
    const request = await h.nextRequest();
    expect(request.grantOptions).toEqual([]);
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed', output: 'hi' });
  });

  it('autoEditable: auto-edit allows the declared write tool, not an undeclared one', async () => {
    const write = (name: string, autoEditable?: true) =>
      defineTool({
        name,
        description: name,
        schema: z.strictObject({ path: z.string() }),
        kind: 'write',
        guarded: { paths: ['path'] },
        ...(autoEditable ? { autoEditable } : {}),
        execute: async () => ({ ok: true, output: 'ok' }),
      });
    h = createGateHarness({ mode: 'auto-edit', tools: [write('patch_file', true), write('touch_file')] });
    expect(await h.call('patch_file', { path: 'a.txt' })).toMatchObject({ status: 'executed' });
    const asked = h.call('touch_file', { path: 'a.txt' });
    const request = await h.nextRequest();
    expect(request.tool).toBe('touch_file');
    h.gate.decide(request.id, { kind: 'skip' });
    expect(await asked).toMatchObject({ status: 'skipped' });
  });

  it('guarded content, cwd and timeout: the diff and command cards come from the declarations, not argument names', async () => {
    const save = defineTool({
      name: 'save_note',
      description: 'save_note',
      schema: z.strictObject({ file: z.string(), body: z.string() }),
      kind: 'write',
      guarded: { paths: ['file'], content: 'body' },
      execute: async () => ({ ok: true, output: 'saved' }),
    });
    const shell = defineTool({
      name: 'run_script',
      description: 'run_script',
      schema: z.strictObject({
        script: z.string(),
        dir: z.string().optional(),
        limit: z.number().optional(),
      }),
      kind: 'execute',
      guarded: { command: 'script', paths: ['dir'], cwd: 'dir', timeout: 'limit' },
      execute: async () => ({ ok: true, output: 'ran' }),
    });
    h = createGateHarness({ tools: [save, shell] });
    h.write('sub/.keep', '');
    const wrote = h.call('save_note', { file: 'n.txt', body: 'hello\n' });
    const diff = await h.nextRequest();
    expect(diff.preview).toMatchObject({
      kind: 'diff',
      path: 'n.txt',
      before: '',
      after: 'hello\n',
      isNew: true,
    });
    h.gate.decide(diff.id, { kind: 'skip' });
    await wrote;
    const ran = h.call('run_script', { script: 'make build', dir: 'sub', limit: 1234 });
    const command = await h.nextRequest();
    expect(command.preview).toMatchObject({ kind: 'command', command: 'make build', timeoutMs: 1234 });
    expect((command.preview as { cwd: string }).cwd).toMatch(/\/sub$/);
    h.gate.decide(command.id, { kind: 'skip' });
    await ran;
  });

  it('forSubAgents: false leaves a tool out of a sub-agent’s specs only', () => {
    h = createGateHarness({ tools: [tool({ name: 'start_helpers', forSubAgents: false })] });
    expect(h.gate.specs(false).map((s) => s.name)).toContain('start_helpers');
    expect(h.gate.specs(true).map((s) => s.name)).not.toContain('start_helpers');
    expect(h.gate.specs(true).map((s) => s.name)).toContain('write_file');
  });

  it('preview: an answer applies only to a card whose tool declared a question, a plan approval only to a plan', async () => {
    h = createGateHarness({
      tools: [
        tool({
          name: 'pick_port',
          interactive: true,
          preview: (a: { text: string }) => ({ kind: 'question', question: a.text }),
        }),
      ],
    });
    const result = h.call('pick_port', { text: 'Which port?' });
    const request = await h.nextRequest();
    expect(request.preview).toEqual({ kind: 'question', question: 'Which port?' });
    expect(h.gate.decide(request.id, { kind: 'approve_plan', steps: ['x'] })).toMatchObject({ ok: false });
    expect(h.gate.decide(request.id, { kind: 'answer', text: '8080' })).toEqual({ ok: true });
    expect(await result).toMatchObject({ status: 'executed' });
    const write = h.call('write_file', { path: 'a.txt', content: 'x' });
    const card = await h.nextRequest();
    expect(h.gate.decide(card.id, { kind: 'answer', text: 'yes' })).toMatchObject({ ok: false });
    h.gate.decide(card.id, { kind: 'skip' });
    await write;
  });

  it.each([
    ['the tool’s own summary of valid arguments', 'say', { text: 'hello' }, 'said hello'],
    ['arguments the schema refuses: the generic line', 'say', { text: 7 }, '7'],
    ['a tool without a summary: its first plain argument', 'mcp__fake__delete', { id: 'issue-9' }, 'issue-9'],
    ['an unknown tool: the generic line', 'nope', { a: { b: 1 } }, '{"a":{"b":1}}'],
  ])('summary: %s', (_name, name, args, line) => {
    h = createGateHarness({
      tools: [tool({ name: 'say', summary: (a: { text: string }) => `said ${a.text}` })],
    });
    expect(h.gate.summary(name, args)).toBe(line);
  });

  it.each([
    [{ path: 'a.txt', content: 'x' }, 'a.txt'],
    [{ steps: 3, done: true }, '3'],
    [{ nested: { x: 1 } }, '{"nested":{"x":1}}'],
    ['plain', 'plain'],
    [undefined, ''],
    [null, ''],
  ])('callLine(%j) is %j', (args, line) => {
    expect(callLine(args)).toBe(line);
  });
});
