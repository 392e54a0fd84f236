/**
 * The placeholders warden creates in the project so bubblewrap can mount an empty, read-only
 * `.warden`, `package.json`, … over a protected name that does not exist yet (a mount needs a mount
 * point, and the project is the host's own folder). Each run records what it holds in a ledger
 * folder outside the project; the last run holding a placeholder removes it, and a later start
 * removes what a killed process left behind.
 *
 * Only empty placeholders with the recorded device and inode are removed: whatever a person or an
 * approved command put there stays. All of it is synchronous, so runs in one process never interleave.
 */
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A missing path to create before a run and remove after it. `content`: what a file placeholder holds
 * (`{}` for JSON: node refuses to run a script beside an empty package.json).
 */
export type Placeholder = { path: string; kind: 'dir' | 'file'; content?: string };

type Identity = { dev: number; ino: number; size: number; mtimeMs: number };
type Held = Placeholder & Identity;
type RunRecord = { pid: number; pidStart: string; held: Held[] };

/** What a run holds; `release` removes its placeholders unless another live run still holds them. Never throws. */
export type MountClaim = { held: readonly Placeholder[]; release(): void };

let sequence = 0;

/** Where records live unless told otherwise: a private folder under the temp folder (the sandbox sees its own /tmp). */
export function defaultLedgerDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `warden-sandbox-${uid}`);
}

/** The ledger of placeholders in `dir`. */
export class MountPointLedger {
  constructor(readonly dir: string = defaultLedgerDir()) {}

  /**
   * Creates the missing placeholders (parents first), adopts those another live run created, and
   * records them before the run starts.
   * Contract: never throws; if the record cannot be written, what was created is removed and the claim fails.
   */
  claim(
    placeholders: readonly Placeholder[],
  ): { ok: true; claim: MountClaim } | { ok: false; reason: string } {
    this.sweep();
    const others = this.liveHeld();
    const held: Held[] = [];
    const created: Held[] = [];
    try {
      for (const p of placeholders) {
        const before = identity(p.path);
        if (before) {
          if (others.some((o) => o.path === p.path && o.dev === before.dev && o.ino === before.ino))
            held.push({ ...p, ...before });
          continue;
        }
        if (!createEmpty(p)) continue;
        const made = identity(p.path);
        if (!made) continue;
        held.push({ ...p, ...made });
        created.push({ ...p, ...made });
      }
      const file = join(this.ensureDir(), `${process.pid}-${++sequence}-${Date.now()}.json`);
      const record: RunRecord = { pid: process.pid, pidStart: processStart(process.pid) ?? '', held };
      writeFileSync(`${file}.tmp`, JSON.stringify(record), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      return {
        ok: true,
        claim: {
          held: held.map(({ path, kind }) => ({ path, kind })),
          release: () => this.release(file, held),
        },
      };
    } catch (err) {
      removeUnused(created, []);
      return {
        ok: false,
        reason: `the sandbox's mount points cannot be recorded (${(err as Error).message})`,
      };
    }
  }

  /**
   * Removes the placeholders of runs whose process is gone (a kill -9, a crash) and their records.
   * Contract: never throws; returns how many placeholders it removed.
   */
  sweep(): number {
    let removed = 0;
    const records = this.records();
    const live = records.filter((r) => r.live).flatMap((r) => r.record?.held ?? []);
    for (const r of records) {
      if (r.live) continue;
      removed += removeUnused(r.record?.held ?? [], live);
      tryUnlink(r.file);
    }
    return removed;
  }

  private release(file: string, held: Held[]): void {
    tryUnlink(file);
    removeUnused(held, this.liveHeld());
  }

  private liveHeld(): Held[] {
    return this.records()
      .filter((r) => r.live)
      .flatMap((r) => r.record?.held ?? []);
  }

  private records(): { file: string; live: boolean; record?: RunRecord }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names.map((name) => {
      const file = join(this.dir, name);
      try {
        const record = JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
        if (!Array.isArray(record.held) || typeof record.pid !== 'number') return { file, live: false };
        return { file, record, live: processStart(record.pid) === record.pidStart };
      } catch {
        return { file, live: false };
      }
    });
  }

  /** The ledger folder, private to this user; refuses one that is a link or someone else's. */
  private ensureDir(): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const s = lstatSync(this.dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : s.uid;
    if (!s.isDirectory() || s.uid !== uid) throw new Error(`${this.dir} is not a folder of this user`);
    return this.dir;
  }
}

/** Removes, children first, each placeholder that no live run holds and that is still the empty thing created. */
function removeUnused(held: readonly Held[], live: readonly Held[]): number {
  let removed = 0;
  for (const h of [...held].reverse()) {
    if (live.some((l) => l.path === h.path && l.dev === h.dev && l.ino === h.ino)) continue;
    try {
      const s = lstatSync(h.path);
      if (s.dev !== h.dev || s.ino !== h.ino) continue;
      // Same inode, size and time: still the placeholder as made (read-only inside every sandbox).
      if (h.kind === 'file' && s.isFile() && s.size === h.size && s.mtimeMs === h.mtimeMs) unlinkSync(h.path);
      else if (h.kind === 'dir' && s.isDirectory()) rmdirSync(h.path);
      else continue;
      removed++;
    } catch {
      // Not empty any more, or gone: it is not ours to remove.
    }
  }
  return removed;
}

function createEmpty(p: Placeholder): boolean {
  try {
    if (p.kind === 'dir') mkdirSync(p.path, { mode: 0o755 });
    else {
      const fd = openSync(p.path, 'wx', 0o644);
      try {
        if (p.content) writeSync(fd, p.content);
      } finally {
        closeSync(fd);
      }
    }
    return true;
  } catch {
    return false;
  }
}

function identity(path: string): Identity | undefined {
  try {
    const s = lstatSync(path);
    return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The start time of a process (field 22 of /proc/PID/stat): a reused PID does not look alive. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
