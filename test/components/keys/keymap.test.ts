import type { Key } from 'ink';
import { NO_KEY } from '../helpers/ink';
import { describe, expect, it } from 'vitest';
import { editorFromText, editorKey, editorText, parseArgs } from '../../components/args-editor-state';
import { scopeWithMinutes } from '../../components/GrantChooser';
import { approvalKeyAction } from '../../components/hooks/use-approval-keys';
import { cleanSteps } from '../../components/PlanStepsEditor';

const k = (patch: Partial<Key> = {}): Key => ({ ...NO_KEY, ...patch });

describe('approvalKeyAction', () => {
  it.each([
    ['y', 'approve'],
    ['a', 'approve_all'],
    ['n', 'reject'],
    ['s', 'skip'],
    ['e', 'edit'],
    ['c', 'cancel_task'],
    ['?', 'help'],
    ['u', 'toggle_layout'],
    ['f', 'toggle_full_screen'],
    ['j', 'scroll'],
    ['x', 'invalid'],
  ])('diff card: %s → %s', (input, kind) => {
    expect(approvalKeyAction(input, k(), 'diff', true).kind).toBe(kind);
  });

  it('E needs a content field to open $EDITOR', () => {
    expect(approvalKeyAction('E', k({ shift: true }), 'diff', true).kind).toBe('external_edit');
    expect(approvalKeyAction('E', k({ shift: true }), 'diff', false).kind).toBe('invalid');
  });

  it('plan cards take no grant, skip or layout keys', () => {
    for (const input of ['a', 's', 'u']) expect(approvalKeyAction(input, k(), 'plan').kind).toBe('invalid');
    expect(approvalKeyAction('y', k(), 'plan').kind).toBe('approve');
  });

  it('arrows and Tab move in the queue; Enter is a mistake; Esc cancels the turn; chords are nothing', () => {
    expect(approvalKeyAction('', k({ upArrow: true }), 'command')).toEqual({ kind: 'queue', delta: -1 });
    expect(approvalKeyAction('', k({ tab: true }), 'command')).toEqual({ kind: 'queue', delta: 1 });
    expect(approvalKeyAction('', k({ tab: true, shift: true }), 'command')).toEqual({ kind: 'queue', delta: -1 });
    expect(approvalKeyAction('\r', k({ return: true }), 'command').kind).toBe('invalid');
    expect(approvalKeyAction('', k({ escape: true }), 'command').kind).toBe('cancel_turn');
    expect(approvalKeyAction('y', k({ ctrl: true }), 'command').kind).toBe('none');
    expect(approvalKeyAction('', k({ pageDown: true }), 'json')).toEqual({ kind: 'scroll', move: 'page-down' });
  });
});

describe('args editor state', () => {
  it('edits across lines and round-trips the text', () => {
    let s = editorFromText('{\n  "a": 1\n}');
    s = editorKey(s, '', k({ downArrow: true }));
    s = editorKey(s, '', k({ end: true }));
    s = editorKey(s, ',', k());
    s = editorKey(s, '', k({ return: true }));
    s = editorKey(s, '  "b": 2', k());
    expect(editorText(s)).toBe('{\n  "a": 1,\n  "b": 2\n}');
    expect(parseArgs(editorText(s))).toEqual({ ok: true, value: { a: 1, b: 2 } });
  });

  it('backspace at a line start joins the lines', () => {
    let s = editorFromText('ab\ncd');
    s = editorKey(s, '', k({ downArrow: true }));
    s = editorKey(s, '', k({ home: true }));
    s = editorKey(s, '', k({ backspace: true }));
    expect(s).toEqual({ lines: ['abcd'], row: 0, col: 2 });
  });

  it('reports a parse error instead of guessing', () => {
    const r = parseArgs('{"a": }');
    expect(r.ok).toBe(false);
  });
});

describe('small pure helpers', () => {
  it('scopeWithMinutes sets or removes minutes', () => {
    const scope = { tool: 't', match: { kind: 'tool' as const }, agents: { kind: 'all' as const }, label: 'l', ruleText: 'r', minutes: 5 };
    expect(scopeWithMinutes(scope, 15).minutes).toBe(15);
    expect('minutes' in scopeWithMinutes(scope, undefined)).toBe(false);
  });

  it('cleanSteps drops empty steps and puts each step on one line', () => {
    expect(cleanSteps([' a ', '', '  ', 'b'])).toEqual(['a', 'b']);
    expect(cleanSteps(['pasted\r\n', 'one\n  two', '\n'])).toEqual(['pasted', 'one two']);
  });
});
