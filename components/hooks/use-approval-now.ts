import { useEffect, useState } from 'react';

/** The injected clock's time, re-read every `everyMs` so ages and expiries count up on screen. */
export function useApprovalNow(now: () => number, everyMs = 1000): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now();
}
