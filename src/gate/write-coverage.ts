/**
 * Whether undo can take a write back: the checkpoint is a shadow git snapshot of the
 * project taken before the turn's first change, which takes no ignore rules from the project (a
 * clone's `.gitignore` of `*` cannot switch undo off), leaves out only `node_modules/` and
 * lists (not copies) files over the size cap. So a write onto an existing file is restorable when that
 * file is a regular, non-binary file under the cap outside `node_modules/` — and git is there at all
 * (without it warden keeps copies of its own file tools' writes only). The gate asks this at
 * judgement time, for every way of writing: a redirect, `-o`, `tee`, `sed -i`, a file tool.
 */
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { WriteCoverage, WriteState } from '../policy/facts';

export type CoverageOptions = {
  /** The checkpoint is the shadow git repository (false: the copies fallback). */
  git: boolean;
  maxFileBytes?: number;
};

/** The checkpoint's size cap (DEFAULT_CHECKPOINT_MAX_FILE_BYTES of src/agent/checkpoints.ts, not imported: it loads git). */
const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A file with a NUL in its first 8000 bytes is binary, as git and the review card read it. */
const BINARY_PROBE = 8000;

/** The coverage of writes under `root`. Contract: never throws; what it cannot read is not covered. */
export function checkpointCoverage(root: string, o: CoverageOptions): WriteCoverage {
  const max = o.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES;
  return {
    state(relative: string, byTool: boolean): WriteState {
      const abs = join(root, relative);
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(abs);
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? { kind: 'new' }
          : { kind: 'uncovered', why: 'warden cannot read what is there' };
      }
      // warden's own file tools keep a pre-image copy when there is no git.
      if (!o.git) return byTool ? { kind: 'covered' } : { kind: 'uncovered', why: 'no git for checkpoints' };
      if (st.isSymbolicLink()) return { kind: 'uncovered', why: 'a link: the write lands on its target' };
      if (!st.isFile()) return { kind: 'uncovered', why: 'not a regular file' };
      if (st.size > max) return { kind: 'uncovered', why: `over ${Math.round(max / 1048576)} MB` };
      if (relative.split('/').includes('node_modules'))
        return { kind: 'uncovered', why: 'under node_modules, which the checkpoint leaves out' };
      if (binary(abs)) return { kind: 'uncovered', why: 'a binary file' };
      return { kind: 'covered' };
    },
  };
}

function binary(path: string): boolean {
  const bytes = head(path, BINARY_PROBE);
  return bytes === undefined || bytes.includes(0);
}

function head(path: string, limit: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(limit);
    const n = readSync(fd, buf, 0, limit, 0);
    return buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
