/**
 * The protection scan of a project, remembered between commands: the plan of the last
 * scan is used again while every path its answer depended on is unchanged — each folder it listed
 * and each path it looked at (lstat: inode, type and mode, size, modification and change times, in
 * nanoseconds), each file whose content it read, and where each link it followed resolves. Any
 * command that adds, removes, renames or rewrites one of them changes its folder's or its own change
 * time, and the next run scans again.
 * A change within the file system's timestamp granularity of the scan could leave a time unchanged
 * (git's "racily clean" files): a plan that depended on anything changed less than RACY_NS before its
 * scan began is not kept. Runs that lift protected paths or unmask credential files are planned
 * afresh every time (a person's card, not the routine path).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { type PlanExtras, type PlanRecorder, type ProtectPlan, planProtection } from './sandbox-protect';

/** How recent a change must be to count as racy: far above any file system's timestamp granularity. */
const RACY_NS = 2_000_000_000n;
/** Plans kept (one per project and settings; a session has one project). */
const MAX_ENTRIES = 8;

type Check = { path: string; what: 'entry' | 'content' | 'real'; seen: string };
type Entry = { plan: ProtectPlan; checks: Check[] };

/** What a path looks like now, as a check compares it. Never throws. */
function look(path: string, what: Check['what']): string {
  try {
    if (what === 'real') return realpathSync.native(path);
    const s = lstatSync(path, { bigint: true });
    return `${s.ino}:${s.mode}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    return `absent:${(err as NodeJS.ErrnoException).code ?? ''}`;
  }
}

function changeTime(seen: string): bigint | undefined {
  const parts = seen.split(':');
  return parts.length === 5 ? BigInt(parts[4] as string) : undefined;
}

/** Remembers protection plans; see the module comment for when one is used again. */
export class ProtectionCache {
  private readonly entries = new Map<string, Entry>();
  /** Scans made and plans used again, for tests and benches. */
  readonly counts = { scans: 0, hits: 0 };
  private readonly racyNs: bigint;

  /** `racyNs`: how recent a change makes a plan racy (tests set 0 and age their files instead). */
  constructor(options: { racyNs?: bigint } = {}) {
    this.racyNs = options.racyNs ?? RACY_NS;
  }

  /** `planProtection` with the same arguments, from memory when nothing it read has changed. Contract: never throws. */
  plan(
    root: string,
    patterns: readonly string[],
    lift: readonly string[],
    limit: number,
    more: Omit<PlanExtras, 'record'> = {},
  ): ProtectPlan {
    if (lift.length > 0 || (more.unmask?.length ?? 0) > 0) {
      this.counts.scans++;
      return planProtection(root, patterns, lift, limit, more);
    }
    const key = JSON.stringify([root, patterns, limit, more.named ?? []]);
    const known = this.entries.get(key);
    if (known && known.checks.every((c) => look(c.path, c.what) === c.seen)) {
      this.counts.hits++;
      return clonePlan(known.plan);
    }
    this.entries.delete(key);
    const began = BigInt(Date.now()) * 1_000_000n;
    const stats = new Map<string, 'entry' | 'content'>();
    const reals = new Set<string>();
    const record: PlanRecorder = (path, what) => {
      if (what === 'real') reals.add(path);
      else if (what === 'content' || !stats.has(path)) stats.set(path, what);
    };
    this.counts.scans++;
    const plan = planProtection(root, patterns, lift, limit, { ...more, record });
    // Looked at after the scan: a change during it shows as a recent change time (not kept).
    const checks: Check[] = [
      ...[...stats].map(([path, what]) => ({ path, what, seen: look(path, what) })),
      ...[...reals].map((path) => ({ path, what: 'real' as const, seen: look(path, 'real') })),
    ];
    const racy = checks.some((c) => {
      const t = changeTime(c.seen);
      return t !== undefined && t > began - this.racyNs;
    });
    if (!racy && !plan.refused) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { plan: clonePlan(plan), checks });
    }
    return plan;
  }
}

/** A plan's lists copied, so a caller that changes one cannot change the remembered plan. */
function clonePlan(plan: ProtectPlan): ProtectPlan {
  return {
    ...plan,
    pinned: [...plan.pinned],
    readOnly: [...plan.readOnly],
    writable: [...plan.writable],
    placeholders: plan.placeholders.map((p) => ({ ...p })),
    masked: plan.masked.map((m) => ({ ...m })),
    watched: [...plan.watched],
  };
}
