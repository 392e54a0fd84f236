import { afterEach, describe, expect, it, vi } from 'vitest';
import { onSecond, TICK_MS } from '../../../components/look/use-second-tick';

describe('one shared second tick for every clock on screen (issue 16: no frame per clock)', () => {
  afterEach(() => vi.useRealTimers());

  it.each([1, 2, 50])('%i clocks share one timer and move in the same tick', (clocks) => {
    vi.useFakeTimers();
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const ticks: number[][] = Array.from({ length: clocks }, () => []);
    const stops = ticks.map((seen) => onSecond((now) => seen.push(now)));
    expect(setInterval).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TICK_MS * 2);
    for (const seen of ticks) expect(seen).toEqual(ticks[0]);
    expect(ticks[0]).toHaveLength(2);
    for (const stop of stops) stop();
    // The last one gone, the timer stops: nothing ticks any more.
    expect(vi.getTimerCount()).toBe(0);
    setInterval.mockRestore();
  });

  it('a clock that stops no longer ticks, the others do', () => {
    vi.useFakeTimers();
    const a: number[] = [];
    const b: number[] = [];
    const stopA = onSecond((now) => a.push(now));
    const stopB = onSecond((now) => b.push(now));
    stopA();
    vi.advanceTimersByTime(TICK_MS);
    expect(a).toHaveLength(0);
    expect(b).toHaveLength(1);
    stopB();
  });
});
