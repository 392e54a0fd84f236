// Audit appends per second: the real writer (redaction + one line-atomic write on a cached fd)
// against the simplest alternative, appendFileSync(path, JSON.stringify(record)) without redaction;
// and `appendSoon` in turns of 64 lines (a burst's 64 calls side by side: one write a turn) against
// `append` (one write a line) in the same run.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redact } from '../src/audit/redact';
import { createAuditWriter } from '../src/audit/writer';
import { median, printRow } from './stats';
import { sampleRecord } from './audit-sample';

const COUNT = 20_000;
const ROUNDS = 5;

const sample = sampleRecord;

function perSecond(ms: number): number {
  return Math.round((COUNT / ms) * 1000);
}

function timeWriter(dir: string): number {
  const writer = createAuditWriter({ dir, sessionId: 'bench', onError: (e) => console.error(e) });
  const start = performance.now();
  for (let i = 0; i < COUNT; i++) writer.append(sample(i));
  const ms = performance.now() - start;
  writer.close();
  return ms;
}

/** `appendSoon`, 64 lines a turn of the microtask queue, each turn awaited as the gate's lanes do. */
async function timeWriterSoon(dir: string): Promise<number> {
  const writer = createAuditWriter({ dir, sessionId: 'bench', onError: (e) => console.error(e) });
  const start = performance.now();
  for (let i = 0; i < COUNT; i += 64) {
    const turn: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(i + 64, COUNT); j++) turn.push(writer.appendSoon(sample(j)));
    await Promise.all(turn);
  }
  const ms = performance.now() - start;
  writer.close();
  return ms;
}

function timePlain(dir: string): number {
  const path = join(dir, 'plain.jsonl');
  const start = performance.now();
  for (let i = 0; i < COUNT; i++) appendFileSync(path, `${JSON.stringify(sample(i))}\n`);
  return performance.now() - start;
}

function timeRedactOnly(): number {
  const start = performance.now();
  for (let i = 0; i < COUNT; i++) JSON.stringify(redact(sample(i)));
  return performance.now() - start;
}

const root = mkdtempSync(join(tmpdir(), 'warden-audit-bench-'));
try {
  const writer: number[] = [];
  const plain: number[] = [];
  const redactOnly: number[] = [];
  const soon: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dir = join(root, `r${round}`);
    writer.push(timeWriter(dir));
    soon.push(await timeWriterSoon(join(root, `s${round}`)));
    plain.push(timePlain(root));
    redactOnly.push(timeRedactOnly());
  }
  const w = median(writer);
  const p = median(plain);
  printRow(
    `audit writer (redact + append), ${COUNT} records`,
    `${perSecond(w).toLocaleString('en')} appends/s`,
  );
  printRow(`appendFileSync(JSON.stringify), no redaction`, `${perSecond(p).toLocaleString('en')} appends/s`);
  printRow(
    '  of which redaction + stringify alone',
    `${perSecond(median(redactOnly)).toLocaleString('en')} records/s`,
  );
  printRow('writer time / plain time', `${(w / p).toFixed(2)}×`);
  const s = median(soon);
  printRow(
    'appendSoon, 64 lines a turn (one write a turn)',
    `${perSecond(s).toLocaleString('en')} appends/s (${(w / s).toFixed(2)}× append)`,
  );
  printRow('writer cost per append', `${((w / COUNT) * 1000).toFixed(1)} µs`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
