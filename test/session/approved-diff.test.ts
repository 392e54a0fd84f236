import { describe, expect, it } from 'vitest';
import type { CoreEvent, ToolDiff, TranscriptEntry } from '../../src/protocol';
import { clip, compactDiff } from '../../src/session/compact-diff';
import { initialCoreState, SessionState } from '../../src/session/session-state';

type Card = Extract<TranscriptEntry, { kind: 'tool' }>;

const file = (n: number, f = (i: number) => `line ${i + 1}`) =>
  `${Array.from({ length: n }, (_, i) => f(i)).join('\n')}\n`;
const edit = (n: number, lines: number[]) =>
  file(n, (i) => (lines.includes(i + 1) ? `line ${i + 1} CHANGED` : `line ${i + 1}`));
/** The hunks as a picture: `~N` skipped lines, then `sign+no` per line. */
const picture = (d: ToolDiff) =>
  d.hunks
    .map((h) => [`~${h.skipped}`, ...h.lines.map((l) => `${l.sign.trim() || '='}${l.no}`)].join(' '))
    .join(' | ');

describe('compactDiff', () => {
  it.each([
    {
      name: 'one change: one line of context each side',
      before: file(20),
      after: edit(20, [10]),
      want: '~8 =9 -10 +10 =11',
      more: 0,
    },
    {
      name: 'three changes in a 2,000-line file: three hunks with the unchanged runs counted',
      before: file(2000),
      after: edit(2000, [100, 1000, 1900]),
      want: '~98 =99 -100 +100 =101 | ~897 =999 -1000 +1000 =1001 | ~897 =1899 -1900 +1900 =1901',
      more: 0,
    },
    {
      name: 'more hunks than the cap: the rest are counted',
      before: file(100),
      after: edit(100, [10, 30, 50, 70, 90]),
      want: '~8 =9 -10 +10 =11 | ~17 =29 -30 +30 =31 | ~17 =49 -50 +50 =51',
      more: 4,
    },
    {
      name: 'a new file: its first lines, the rest counted',
      before: '',
      after: file(30),
      want: '~0 +1 +2 +3 +4 +5 +6 +7 +8 +9 +10 +11 +12',
      more: 18,
    },
  ])('$name', ({ before, after, want, more }) => {
    const d = compactDiff('a.ts', before, after, before === '');
    expect(picture(d)).toBe(want);
    expect(d.more).toBe(more);
    expect(d.added).toBe(d.isNew ? 30 : d.removed);
  });

  it('stays small however large the file: rows and line lengths are capped', () => {
    const long = 'x'.repeat(2000);
    const d = compactDiff(
      'big.txt',
      file(2000, () => long),
      file(2000, (i) => (i % 10 === 0 ? `${long}!` : long)),
      false,
    );
    expect(JSON.stringify(d).length).toBeLessThan(12 * 300 + 1000);
    expect(d.added).toBe(200);
    expect(d.more).toBeGreaterThan(390);
  });

  it('a long changed line is cut around its change', () => {
    const head = 'a=1;'.repeat(500);
    expect(clip(`${head}oldName${head}`, `${head}newName${head}`, 60)).toMatch(/^….{20}oldName.{33}…$/);
    expect(clip('short', 'shorter', 60)).toBe('short');
  });
});

describe('an approved write keeps its folded diff in the transcript', () => {
  const view = () =>
    new SessionState(
      initialCoreState({
        sessionId: 's',
        root: '/p',
        model: { name: 'm', demo: false },
        mode: 'manual',
        sandboxed: true,
      }),
    );
  const started: CoreEvent = {
    type: 'tool_started',
    agentId: 'main',
    callId: 'c1',
    tool: 'write_file',
    args: {},
  };
  const preview = {
    kind: 'diff' as const,
    path: 'a.ts',
    before: file(50),
    after: edit(50, [25]),
    isNew: false,
  };
  const card = (v: SessionState) => v.state.transcript.find((e): e is Card => e.kind === 'tool');

  it.each([
    { status: 'executed' as const, kept: true },
    { status: 'error' as const, kept: false },
    { status: 'rejected' as const, kept: false },
  ])('a call that ends $status keeps a diff: $kept', ({ status, kept }) => {
    const v = view();
    v.apply(started);
    v.rememberApproved({ callId: 'c1', preview });
    v.apply({ type: 'tool_finished', agentId: 'main', callId: 'c1', tool: 'write_file', result: { status } });
    const diff = card(v)?.diff;
    if (!kept) return expect(diff).toBeUndefined();
    expect(diff?.hunks[0]?.lines.map((l) => `${l.sign}${l.text}`)).toEqual([
      ' line 24',
      '-line 25',
      '+line 25 CHANGED',
      ' line 26',
    ]);
  });

  it('no approval, no diff (and a command has none)', () => {
    const v = view();
    v.apply(started);
    v.rememberApproved({ callId: 'c1', preview: { kind: 'json' } });
    v.apply({
      type: 'tool_finished',
      agentId: 'main',
      callId: 'c1',
      tool: 'write_file',
      result: { status: 'executed' },
    });
    expect(card(v)?.diff).toBeUndefined();
  });
});
