import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../lazy-zod';
import { readRegularFile } from '../policy/safe-read';

/** One trusted project: the content hash of its `.warden` files when the person trusted them. */
export type TrustRecord = { hash: string; trustedAt: string };

const TrustFileSchema = lazySchema((z) =>
  z.object({
    version: z.literal(1),
    projects: z.record(
      z.string(),
      z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.string() }),
    ),
  }),
);
type TrustFile = z.infer<typeof TrustFileSchema>;

const TRUST_CAP = 4 * 1024 * 1024;

/** `$WARDEN_HOME/trust.json`. */
export function trustFilePath(home: string): string {
  return join(home, 'trust.json');
}

/**
 * The trust records in `$WARDEN_HOME/trust.json`, by real project root.
 * Contract: never throws; a missing, unreadable or malformed file trusts nothing.
 */
export function readTrustRecords(home: string): Record<string, TrustRecord> {
  const read = readRegularFile(trustFilePath(home), TRUST_CAP);
  if (read.kind !== 'ok' || read.truncated) return {};
  try {
    const parsed = TrustFileSchema.safeParse(JSON.parse(read.text));
    return parsed.success ? parsed.data.projects : {};
  } catch {
    return {};
  }
}

/** Whether the person trusted exactly this content (`hash`) of the project at `root`. */
export function isTrusted(home: string, root: string, hash: string): boolean {
  return readTrustRecords(home)[root]?.hash === hash;
}

/**
 * Records that the person trusts the project's files as they are now (`hash`); an older record
 * for the same root is replaced. Written whole to a temp file and renamed, readable by the owner only.
 * Returns the text written. Contract: throws when the file cannot be written (the caller reports
 * it; nothing is trusted then).
 */
export function recordTrust(home: string, root: string, hash: string, now: Date = new Date()): string {
  const projects = readTrustRecords(home);
  projects[root] = { hash, trustedAt: now.toISOString() };
  return writeTrust(home, { version: 1, projects });
}

/** Drops the record for `root` (the person withdrew trust). Contract: as `recordTrust`. */
export function forgetTrust(home: string, root: string): string {
  const projects = readTrustRecords(home);
  delete projects[root];
  return writeTrust(home, { version: 1, projects });
}

function writeTrust(home: string, file: TrustFile): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = trustFilePath(home);
  const temp = `${path}.${process.pid}.tmp`;
  const text = `${JSON.stringify(file, null, 2)}\n`;
  try {
    // A leftover temp (or a planted link) is removed; `wx` then creates a fresh file, never follows one.
    rmSync(temp, { force: true });
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  // The exact text written: the home guard records it as warden's own change.
  return text;
}
