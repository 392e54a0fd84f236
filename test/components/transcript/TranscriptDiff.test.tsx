import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldedDiff } from '../../../components/drawer/preview/FoldedDiff';
import { ToolCard } from '../../../components/transcript/ToolCard';
import type { TranscriptEntry } from '../../../src/protocol';
import { compactDiff } from '../../../src/session/compact-diff';
import { stripAnsi } from '../../helpers/ink';

afterEach(() => cleanup());

const file = (n: number, f = (i: number) => `line ${i + 1}`) =>
  `${Array.from({ length: n }, (_, i) => f(i)).join('\n')}\n`;
const before = file(2000);
const after = before
  .replace('line 100\n', 'line one hundred\n')
  .replace('line 1000\n', 'line 1000 (fixed)\n')
  .replace('line 1900\n', 'line NINETEEN\n');

describe('an approved write in the transcript', () => {
  it('keeps its folded diff under the card: hunks, markers, fold rows', () => {
    const entry: Extract<TranscriptEntry, { kind: 'tool' }> = {
      kind: 'tool',
      id: 'e1',
      agentId: 'main',
      tool: 'write_file',
      summary: 'big.ts',
      status: 'executed',
      result: 'wrote 2000 lines',
      diff: compactDiff('big.ts', before, after, false),
    };
    const r = render(<ToolCard entry={entry} width={100} />);
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(f).toContain('+3 −3');
    expect(f).toContain('⋯ 98 unchanged lines');
    expect(f).toContain('⋯ 897 unchanged lines');
    expect(f).toMatch(/1000 - line 1000$/m);
    expect(f).toMatch(/1000 \+ line 1000 \(fixed\)$/m);
    expect(f).toMatch(/1900 \+ line NINETEEN$/m);
  });

  it('past the caps it says how many changed lines are not shown', () => {
    const entry: Extract<TranscriptEntry, { kind: 'tool' }> = {
      kind: 'tool',
      id: 'e1',
      agentId: 'main',
      tool: 'write_file',
      summary: 'new.ts',
      status: 'executed',
      diff: compactDiff('new.ts', '', file(40), true),
    };
    const f = stripAnsi(render(<ToolCard entry={entry} width={80} />).lastFrame() ?? '');
    expect(f).toContain('new file · 40 lines');
    expect(f).toContain('+28 more changed lines');
  });
});

describe('FoldedDiff (for views that list changes)', () => {
  it('shows a file folded to its hunks, without key hints', () => {
    const r = render(<FoldedDiff path="big.ts" before={before} after={after} width={120} height={30} />);
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(f).toContain('change 1 of 3 · line 100');
    expect(f).toContain('⋯ 96 unchanged lines');
    expect(f).toMatch(/^ *1000 - line 1000 +│ 1000 \+ line 1000 \(fixed\)/m);
    expect(f).not.toContain('j/k');
  });
});
