import { describe, expect, it } from 'vitest';
import { cardKeysLine } from '../../../components/drawer/drawer-state';
import type { ApprovalRequest } from '../../../src/protocol';
import { makeRequest } from '../../helpers/fake-core';
import { stripAnsi, waitUntil } from '../../helpers/ink';
import { commandRequest, renderDrawer } from './approval-drawer-harness';

const PAUSED = 'keys paused';
const write = (id: string, path: string): ApprovalRequest =>
  makeRequest({
    id,
    argsHash: `hash-${id}`,
    args: { path, content: 'x\n' },
    preview: { kind: 'diff', path, before: '', after: 'x\n', isNew: true },
  });

/** The first frame that shows `marker` (ANSI stripped). */
async function firstFrameWith(frames: string[], marker: string): Promise<string> {
  await waitUntil(() => expect(frames.some((f) => stripAnsi(f).includes(marker))).toBe(true));
  return stripAnsi(frames.find((f) => stripAnsi(f).includes(marker)) ?? '');
}

/** A frame with the card's own keys line offers its keys: it must not while keys are ignored. */
function expectGraceShown(frame: string, request: ApprovalRequest): void {
  expect(frame).toContain(PAUSED);
  expect(frame).not.toContain(cardKeysLine(request).slice(0, 24));
}

describe("a new card's first frame shows the grace window (issue 16)", () => {
  it.each([
    { name: 'a write', request: write('w1', 'src/first.ts'), marker: 'src/first.ts new file' },
    { name: 'a command', request: commandRequest(), marker: 'rm -rf build' },
  ])('the drawer opening on $name', async ({ request, marker }) => {
    const d = renderDrawer([request]);
    await firstFrameWith(d.frames, marker);
    // From the very first frame of the drawer: the card, paused.
    expect(stripAnsi(d.frames[0] ?? '')).toContain(marker);
    expectGraceShown(stripAnsi(d.frames[0] ?? ''), request);
  });

  it('a request arriving in an open, empty drawer', async () => {
    const d = renderDrawer([]);
    await d.frame('queue empty');
    const request = write('w1', 'src/arrived.ts');
    d.rerender({ pending: [request] });
    expectGraceShown(await firstFrameWith(d.frames, 'src/arrived.ts new file'), request);
  });

  it('the next card, when the one under the cursor left without this drawer deciding it', async () => {
    const first = write('w1', 'src/one.ts');
    const second = write('w2', 'src/two.ts');
    const d = renderDrawer([first, second]);
    await d.frame('src/one.ts');
    // The grace window of the first card has passed: its keys are offered.
    await waitUntil(() => expect(stripAnsi(d.lastFrame() ?? '')).not.toContain(PAUSED), 3000);
    expect(stripAnsi(d.lastFrame() ?? '')).toContain(cardKeysLine(first).slice(0, 24));
    // The first card left without this drawer deciding it (a timeout, a grant, another agent's cancel).
    const from = d.frames.length;
    d.rerender({ pending: [second] });
    await firstFrameWith(d.frames, 'src/two.ts new file');
    // Every frame since: the new card, paused — never the old card or its keys.
    const since = d.frames.slice(from).map(stripAnsi);
    expect(since.length).toBeGreaterThan(0);
    for (const frame of since) {
      expect(frame).not.toContain('src/one.ts new file');
      expectGraceShown(frame, second);
    }
  });
});
