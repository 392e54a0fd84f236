import { createHash } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../policy/safe-read';

/** warden's own settings in `$WARDEN_HOME`: what a tool must never change behind the gate. */
export const GUARDED_HOME_FILES = ['policy.json', 'config.json', 'trust.json'] as const;
export type GuardedHomeFile = (typeof GUARDED_HOME_FILES)[number];

/** A file found changed behind the gate, and what the guard did about it. */
export type HomeTamper = { file: string; savedAs?: string; restored: boolean; error?: string };

type Known = {
  stamp: string;
  state: { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'other'; sha: string };
};

const CAP = 4 * 1024 * 1024;

/**
 * Watches `$WARDEN_HOME/policy.json`, `config.json` and `trust.json` across tool calls. An MCP
 * server (or a command run without the sandbox) is a process the gate cannot fence: if one of
 * these files changed while a tool ran, the guard puts back the version warden knew, keeps the
 * changed one beside it as `<name>.rejected-<time>`, and reports it — so neither this session
 * nor the next one ever loads settings that no person wrote. Changes found between turns (no
 * tool running) are the person's own edits and are accepted; warden's own writes are recorded.
 * Contract: never throws.
 */
export class HomeGuard {
  private readonly known = new Map<GuardedHomeFile, Known>();

  constructor(private readonly home: string) {
    for (const name of GUARDED_HOME_FILES) this.known.set(name, this.look(name));
  }

  /** Takes the files as they are now as known (between turns: the person's edits). Returns the changed names. */
  acceptAll(): GuardedHomeFile[] {
    const changed: GuardedHomeFile[] = [];
    for (const name of GUARDED_HOME_FILES) {
      const now = this.look(name);
      if (!sameContent(this.known.get(name), now)) changed.push(name);
      this.known.set(name, now);
    }
    return changed;
  }

  /** warden itself wrote `text` to `name` (a saved grant, a trust record). */
  accept(name: GuardedHomeFile, text: string): void {
    this.known.set(name, { stamp: stampOf(join(this.home, name)), state: { kind: 'text', text } });
  }

  /** warden itself just wrote `name` (e.g. a saved grant): record what is there now. */
  acceptFromDisk(name: GuardedHomeFile): void {
    this.known.set(name, this.look(name));
  }

  /** After a tool call: every file changed since it was known is put back; the changed one is kept aside. */
  restoreChanged(now: Date = new Date()): HomeTamper[] {
    const out: HomeTamper[] = [];
    for (const name of GUARDED_HOME_FILES) {
      const known = this.known.get(name) as Known;
      const path = join(this.home, name);
      // Fast path: same inode, size and change time → unchanged (a write always moves ctime).
      if (stampOf(path) === known.stamp) continue;
      const current = this.look(name);
      if (sameContent(known, current)) {
        this.known.set(name, { ...known, stamp: current.stamp });
        continue;
      }
      out.push(this.restore(name, path, known, now));
      this.known.set(name, { ...known, stamp: stampOf(path) });
    }
    return out;
  }

  private restore(name: GuardedHomeFile, path: string, known: Known, now: Date): HomeTamper {
    const savedAs = `${path}.rejected-${now.toISOString().replace(/[:.]/g, '-')}`;
    let moved = false;
    try {
      try {
        // A rename moves whatever is there (file, link, fifo) aside without reading it.
        renameSync(path, savedAs);
        moved = true;
      } catch (err) {
        // Deleted behind the gate: nothing to keep aside, only the known text to put back.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      if (known.state.kind === 'text') {
        const temp = `${path}.${process.pid}.restore`;
        rmSync(temp, { force: true });
        writeFileSync(temp, known.state.text, { mode: 0o600, flag: 'wx' });
        renameSync(temp, path);
      }
      return { file: name, ...(moved ? { savedAs } : {}), restored: known.state.kind !== 'other' };
    } catch (err) {
      return { file: name, ...(moved ? { savedAs } : {}), restored: false, error: (err as Error).message };
    }
  }

  private look(name: GuardedHomeFile): Known {
    const path = join(this.home, name);
    const stamp = stampOf(path);
    const read = readRegularFile(path, CAP);
    if (read.kind === 'missing') return { stamp, state: { kind: 'missing' } };
    if (read.kind === 'ok' && !read.truncated) return { stamp, state: { kind: 'text', text: read.text } };
    return {
      stamp,
      state: {
        kind: 'other',
        sha: createHash('sha256')
          .update(stamp)
          .update(read.kind === 'ok' ? read.text : read.reason)
          .digest('hex'),
      },
    };
  }
}

function sameContent(a: Known | undefined, b: Known): boolean {
  if (!a || a.state.kind !== b.state.kind) return false;
  if (a.state.kind === 'text' && b.state.kind === 'text') return a.state.text === b.state.text;
  if (a.state.kind === 'other' && b.state.kind === 'other') return a.state.sha === b.state.sha;
  return true;
}

function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.ctimeNs}:${s.mtimeNs}`;
  } catch (err) {
    return `absent:${(err as NodeJS.ErrnoException).code ?? ''}`;
  }
}
