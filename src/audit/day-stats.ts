import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditRecord, AuditStats } from '../protocol/audit';
import { parseLine } from './reader';
import { auditStats } from './stats';
import { auditFileName } from './day-file';

const CHUNK = 256 * 1024;
const CACHED_DAYS = 7;

type Cached = { size: number; mtimeMs: number; stats: AuditStats };
const cache = new Map<string, Cached>();

/**
 * The stats of a whole day, computed off the page path: the file is read forward in 256 KB chunks
 * (each `await` lets keys and frames through), every record is kept only as the fields stats
 * read (args and results dropped), and the answer is cached until the file changes — reopening
 * the browser on a quiet day costs a `stat`.
 * Contract: never rejects; a missing file has empty stats; an abort resolves undefined.
 */
export async function dayStats(
  dir: string,
  day: string,
  signal?: AbortSignal,
): Promise<AuditStats | undefined> {
  const path = join(dir, auditFileName(day));
  let info: { size: number; mtimeMs: number };
  try {
    info = await stat(path);
  } catch {
    return auditStats([]);
  }
  const hit = cache.get(path);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit.stats;
  const records = await readProjected(path, signal);
  if (records === undefined) return undefined;
  const stats = auditStats(records);
  cache.delete(path);
  cache.set(path, { ...info, stats });
  if (cache.size > CACHED_DAYS) cache.delete(cache.keys().next().value ?? '');
  return stats;
}

async function readProjected(path: string, signal?: AbortSignal): Promise<AuditRecord[] | undefined> {
  const records: AuditRecord[] = [];
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return records;
  }
  try {
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      if (signal?.aborted) return undefined;
      const buffer = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      // Decode whole lines only: a chunk may end inside a line, or inside a multi-byte character.
      const data = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
      const last = data.lastIndexOf(0x0a);
      carry = data.subarray(last + 1);
      if (last === -1) continue;
      for (const line of data.toString('utf8', 0, last).split('\n')) addLine(records, line);
    }
    addLine(records, carry.toString('utf8'));
    return records;
  } catch {
    return records;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function addLine(records: AuditRecord[], line: string): void {
  const parsed = parseLine(line);
  if (parsed.kind !== 'record') return;
  // Stats read flags and counts, never the arguments or results: drop them so a day fits in little memory.
  const { args: _args, result: _result, editedArgs, ...rest } = parsed.record;
  records.push({
    ...rest,
    args: null,
    ...(editedArgs === undefined ? {} : { editedArgs: true }),
  } as AuditRecord);
}
