/** When a command counts as read-only: writing only the sandbox's private /tmp reads the same. */
import type { CommandPart } from './command/command-types';

/** Streams, not files (facts.ts leaves them out of `writes`). */
const HARMLESS_WRITE = /^\/dev\/(null|stdout|stderr|fd\/[12])$/;

/** Every part only reads, or reads and writes only scratch files (`git log > /tmp/x`). */
export function readsOrScratch(
  parts: readonly CommandPart[],
  writes: readonly { target: string; scratch?: true }[] | undefined,
): boolean {
  if (!(writes ?? []).every((w) => w.scratch)) return false;
  const scratch = new Set((writes ?? []).map((w) => w.target));
  return parts.every(
    (p) =>
      !p.destructive &&
      (p.readOnly
        ? (p.writes?.length ?? 0) === 0
        : p.readsButWrites === true &&
          (p.writes ?? []).every((t) => scratch.has(t) || HARMLESS_WRITE.test(t))),
  );
}
