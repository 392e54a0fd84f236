import { describe, expect, it } from 'vitest';
import {
  CALLS_FRAME_SHARE,
  COALESCE_MS,
  FRAME_SHARE,
  MAX_FRAME_GAP_MS,
  frameGap,
  frameShare,
} from '../../../components/hooks/use-core-state';

describe('frameGap: frames of a burst are paced by what they cost', () => {
  it.each([
    { cost: 0, gap: COALESCE_MS },
    { cost: 2, gap: COALESCE_MS },
    { cost: 10, gap: 10 * FRAME_SHARE },
    { cost: 1_000, gap: MAX_FRAME_GAP_MS },
  ])('a frame of $cost ms → the next after $gap ms', ({ cost, gap }) => {
    expect(frameGap(cost)).toBe(gap);
  });

  it.each([
    { cost: 1, gap: COALESCE_MS },
    { cost: 10, gap: 10 * CALLS_FRAME_SHARE },
    { cost: 1_000, gap: MAX_FRAME_GAP_MS },
  ])('while calls start and end, a frame of $cost ms → the next after $gap ms', ({ cost, gap }) => {
    expect(frameGap(cost, CALLS_FRAME_SHARE)).toBe(gap);
    expect(CALLS_FRAME_SHARE).toBeGreaterThan(FRAME_SHARE);
  });

  it('calls starting and ending frame at the calls share; streamed text and the rest at the usual one', () => {
    for (const type of ['tool_started', 'tool_finished', 'audit_recorded'] as const)
      expect(frameShare(type)).toBe(CALLS_FRAME_SHARE);
    for (const type of ['message_delta', 'tool_output', 'notice', 'state_changed'] as const)
      expect(frameShare(type)).toBe(FRAME_SHARE);
  });
});
