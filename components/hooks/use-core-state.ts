import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { CoreClient, CoreEvent, CoreState } from '../../src/protocol';

/** How long a burst of events (e.g. message deltas) is coalesced into one re-render. */
export const COALESCE_MS = 16;
/** While events keep coming, a frame waits this many times as long as the last one took to render… */
export const FRAME_SHARE = 3;
/**
 * …and twice that while tool calls start and end (a burst of parallel calls): its block of counts
 * moves a few times a second all the same, and the calls get the main thread (bench/burst.bench.ts:
 * ~4 % of a 5,000-call burst, same run). Streamed text keeps FRAME_SHARE.
 */
export const CALLS_FRAME_SHARE = 6;
/** The events of calls starting and ending, which frame at CALLS_FRAME_SHARE. */
const CALL_EVENTS: ReadonlySet<CoreEvent['type']> = new Set<CoreEvent['type']>([
  'tool_started',
  'tool_finished',
  'audit_recorded',
]);

/** The frame share an event asks for: CALLS_FRAME_SHARE for calls starting and ending, else FRAME_SHARE. */
export const frameShare = (type: CoreEvent['type']): number =>
  CALL_EVENTS.has(type) ? CALLS_FRAME_SHARE : FRAME_SHARE;
/** …but never longer than this: a burst still moves on screen a few times a second. */
export const MAX_FRAME_GAP_MS = 200;

/**
 * Events a person waits for, shown at once rather than after the frame gap: a request for a decision,
 * its end, and a turn's end (the answer after a burst of thousands of calls, whose last frames were
 * expensive, would otherwise wait up to MAX_FRAME_GAP_MS on screen for nothing).
 */
export const RENDERS_AT_ONCE: ReadonlySet<CoreEvent['type']> = new Set<CoreEvent['type']>([
  'approval_requested',
  'approval_resolved',
  'turn_done',
]);

/** How long to wait before the next frame of a burst, given what the last frame cost and what came. */
export function frameGap(lastRenderMs: number, share = FRAME_SHARE): number {
  return Math.min(MAX_FRAME_GAP_MS, Math.max(COALESCE_MS, share * lastRenderMs));
}

/**
 * The core's state, re-read from `client.snapshot()` after events. Events within one frame gap
 * cause one render, so streaming deltas don't render once per delta; the gap is COALESCE_MS, or
 * longer when frames are expensive (`frameGap`): a burst of thousands of calls then spends most of
 * its time on the calls, not on drawing them. Approval requests, their resolutions and a turn's end
 * render at once (RENDERS_AT_ONCE) — unless another did less than COALESCE_MS ago: a burst of thousands of requests then
 * renders once a frame, not once each (every render copies and walks the whole state).
 */
export function useCoreState(client: CoreClient): CoreState {
  const [state, setState] = useState(() => client.snapshot());
  // When the last snapshot was handed to React, and what its render cost (measured at commit).
  const frame = useRef<{ since?: number; cost: number }>({ cost: 0 });
  useLayoutEffect(() => {
    const { since } = frame.current;
    if (since === undefined) return;
    frame.current = { cost: performance.now() - since };
  });
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let lastUrgent = Number.NEGATIVE_INFINITY;
    const flush = () => {
      timer = undefined;
      frame.current.since = performance.now();
      setState(client.snapshot());
    };
    const unsubscribe = client.changes((type) => {
      // A request waiting for a person, or a turn's end, is shown at once; streaming text may wait a frame.
      const urgent = RENDERS_AT_ONCE.has(type);
      if (urgent && performance.now() - lastUrgent >= COALESCE_MS) {
        lastUrgent = performance.now();
        if (timer) clearTimeout(timer);
        flush();
        return;
      }
      timer ??= setTimeout(flush, frameGap(frame.current.cost, frameShare(type)));
    });
    // An event may have arrived between the first snapshot and subscribing.
    setState(client.snapshot());
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
  return state;
}
