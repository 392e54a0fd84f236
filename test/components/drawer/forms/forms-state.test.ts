import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import {
  editorFromText,
  editorKey,
  editorText,
  parseArgs,
} from '../../../../components/drawer/forms/args-editor-state';
import { scopeWithMinutes } from '../../../../components/drawer/forms/GrantChooser';
import { cleanSteps } from '../../../../components/drawer/forms/PlanStepsEditor';
import { NO_KEY } from '../../../helpers/ink';

const k = (patch: Partial<Key> = {}): Key => ({ ...NO_KEY, ...patch });

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
    const scope = {
      tool: 't',
      match: { kind: 'tool' as const },
      agents: { kind: 'all' as const },
      label: 'l',
      ruleText: 'r',
      minutes: 5,
    };
    expect(scopeWithMinutes(scope, 15).minutes).toBe(15);
    expect('minutes' in scopeWithMinutes(scope, undefined)).toBe(false);
  });

  it('cleanSteps drops empty steps and puts each step on one line', () => {
    expect(cleanSteps([' a ', '', '  ', 'b'])).toEqual(['a', 'b']);
    expect(cleanSteps(['pasted\r\n', 'one\n  two', '\n'])).toEqual(['pasted', 'one two']);
  });
});
