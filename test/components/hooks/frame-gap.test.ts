import { describe, expect, it } from 'vitest';
import {
  COALESCE_MS,
  FRAME_SHARE,
  MAX_FRAME_GAP_MS,
  frameGap,
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
});
