// Audit appends with the hash chain, the identity fields and the OpenTelemetry export on, against the
// writer as it was before them (its own copy of src/ at BASELINE_REV, bench/baseline-src.ts), in the
// same run, rounds interleaved. Two ways of appending: `append` line by line, and `appendSoon` in
// turns of 64 lines (a burst's parallel calls); a macrotask between turns in both, as the gate's
// lanes leave one. The export hands where each write went to its worker thread, which reads the
// lines back, builds the events and sends them to a receiver on 127.0.0.1 (a process of its own); the worker's work shares the
// machine's two cores with the appends, so on a busy machine it shows in the wall time; the CPU
// figure is the main thread's alone. `ROUNDS=N` changes the number of rounds (default 6); the order of the three turns each round.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AuditExport } from '../src/audit/export/audit-export';
import { sessionIdentity } from '../src/audit/identity/session-identity';
import { type WrittenRange, createAuditWriter } from '../src/audit/writer';
import type { AuditRecord } from '../src/protocol/audit';
import { baselineSource } from './baseline-src';
import { median, printRow } from './stats';
import { sampleRecord } from './audit-sample';

/** The last commit before the chain: its writer is "today's". */
const BASELINE_REV = '6d82bc4';
const COUNT = 20_000;
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const TURN = 64;
/** Lines of today, as a session writes them (a line of a day gone by asks whether today's file began). */
const TODAY = `${new Date().toISOString().slice(0, 10)}T10:00:00.000Z`;

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

const sample = (i: number): AuditRecord => sampleRecord(i, TODAY);

type Appended = { ok: boolean; record: AuditRecord; at?: WrittenRange };
type Writer = {
  append(r: AuditRecord): Appended;
  appendSoon(r: AuditRecord): Promise<Appended>;
  close(): void;
};
type MakeWriter = (dir: string) => Writer;

const noError = (e: Error) => console.error(e);
const yieldMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * CPU ms this process's main thread has used (Linux: its own line in /proc, 10 ms ticks), so the
 * figure is the appends' own cost on a machine that other work (or the export's worker) keeps busy;
 * elsewhere the whole process's.
 */
function mainThreadCpuMs(): number {
  try {
    const fields =
      readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/** One way of appending, timed: wall ms and main-thread CPU ms. */
type Took = { wall: number; cpu: number };

async function took(run: () => Promise<void>): Promise<Took> {
  const cpu = mainThreadCpuMs();
  const start = performance.now();
  await run();
  return { wall: performance.now() - start, cpu: mainThreadCpuMs() - cpu };
}

/** COUNT appends one by one, and COUNT in turns of TURN; a macrotask every TURN lines in both. */
async function timeBoth(
  make: MakeWriter,
  dir: string,
  after?: (at: WrittenRange) => void,
): Promise<[Took, Took]> {
  const one = make(join(dir, 'one'));
  const lineByLine = await took(async () => {
    for (let i = 0; i < COUNT; i++) {
      const w = one.append(sample(i));
      if (w.ok && w.at) after?.(w.at);
      if (i % TURN === TURN - 1) await yieldMacrotask();
    }
  });
  one.close();
  const soon = make(join(dir, 'soon'));
  const turns = await took(async () => {
    for (let i = 0; i < COUNT; i += TURN) {
      const turn: Promise<Appended>[] = [];
      for (let j = i; j < Math.min(i + TURN, COUNT); j++) turn.push(soon.appendSoon(sample(j)));
      for (const w of await Promise.all(turn)) if (w.ok && w.at) after?.(w.at);
      await yieldMacrotask();
    }
  });
  soon.close();
  return [lineByLine, turns];
}

/**
 * A collector stand-in in a process of its own (a collector is not in warden's): reads each request
 * whole, answers 200, and says how many it took when asked (its stdin closes).
 */
async function receiver(): Promise<{ url: string; requests: () => Promise<number>; close: () => void }> {
  const code = `
    const http = require('node:http');
    let n = 0;
    const server = http.createServer((req, res) => {
      req.on('data', () => {});
      req.on('end', () => { n += 1; res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
    process.stdin.on('data', () => process.stdout.write('requests ' + n + '\\n'));
    process.stdin.on('end', () => process.exit(0));
  `;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = (prefix: string) =>
    new Promise<string>((resolve) => {
      const on = (line: string) => {
        if (!line.startsWith(prefix)) return;
        lines.off('line', on);
        resolve(line.slice(prefix.length));
      };
      lines.on('line', on);
    });
  const port = await next('port ');
  return {
    url: `http://127.0.0.1:${port}/v1/logs`,
    requests: async () => {
      const answer = next('requests ');
      child.stdin.write('?\n');
      return Number(await answer);
    },
    close: () => child.stdin.end(),
  };
}

/**
 * A session's first exported line starts the worker (a thread, the SDK loaded into it) long before
 * any burst; that one-off start is not an append's cost, so each round's exporter has sent one line
 * before the timed appends begin.
 */
async function startedBefore(exporter: AuditExport, dir: string, sent: Promise<void>): Promise<void> {
  const writer = createAuditWriter({ dir, sessionId: 'bench', onError: noError });
  const first = writer.append(sample(-1));
  writer.close();
  if (first.ok && first.at) exporter.record(first.at);
  await sent;
}

const baselineDir = baselineSource(repo, BASELINE_REV);
const baseline = (await import(pathToFileURL(join(baselineDir, 'src', 'audit', 'writer.ts')).href)) as {
  createAuditWriter: (o: { dir: string; sessionId: string; onError: (e: Error) => void }) => Writer;
};
const identity = sessionIdentity(repo, () => 'gpt-4.1-mini');
const today: MakeWriter = (dir) => baseline.createAuditWriter({ dir, sessionId: 'bench', onError: noError });
const chained: MakeWriter = (dir) =>
  createAuditWriter({ dir, sessionId: 'bench', onError: noError, identity });

const root = mkdtempSync(join(tmpdir(), 'warden-audit-chain-bench-'));
const collector = await receiver();
try {
  const keys = ['today', 'chain', 'exported'] as const;
  const times = Object.fromEntries(keys.map((k) => [k, [[], []]])) as unknown as Record<
    (typeof keys)[number],
    [Took[], Took[]]
  >;
  const record = (key: (typeof keys)[number], [a, b]: [Took, Took]) => {
    times[key][0].push(a);
    times[key][1].push(b);
  };
  let sent = 0;
  let failed = 0;
  let dropped = 0;
  const exported = async (dir: string): Promise<[Took, Took]> => {
    let warm: () => void = () => {};
    const warmed = new Promise<void>((resolve) => {
      warm = resolve;
    });
    const exporter = new AuditExport({
      settings: { url: collector.url, headers: {}, from: 'bench' },
      sessionId: 'bench',
      dir,
      resource: { 'service.name': 'warden' },
      onChange: (status) => {
        if (status.sent > 0) warm();
      },
    });
    await startedBefore(exporter, join(dir, 'first'), warmed);
    const both = await timeBoth(chained, dir, (at) => exporter.record(at));
    await exporter.close(60_000);
    sent += exporter.status().sent;
    failed += exporter.status().failed;
    dropped += exporter.status().dropped;
    return both;
  };
  const runs: Record<(typeof keys)[number], (dir: string) => Promise<[Took, Took]>> = {
    today: (dir) => timeBoth(today, dir),
    chain: (dir) => timeBoth(chained, dir),
    exported,
  };
  for (let round = 0; round < ROUNDS; round++) {
    // The order turns each round, so what runs first (a cold heap, the last round's leftovers) falls on each.
    for (let k = 0; k < keys.length; k++) {
      const key = keys[(round + k) % keys.length] as (typeof keys)[number];
      record(key, await runs[key](join(root, `${key}-${round}`)));
    }
  }
  const row = (label: string, key: (typeof keys)[number], i: 0 | 1) => {
    const wall = median(times[key][i].map((t) => t.wall));
    const cpu = median(times[key][i].map((t) => t.cpu));
    const baseWall = median(times.today[i].map((t) => t.wall));
    const baseCpu = median(times.today[i].map((t) => t.cpu));
    const rate = `${Math.round((COUNT / wall) * 1000).toLocaleString('en')} appends/s`;
    const perLine = `${((cpu / COUNT) * 1000).toFixed(1)} µs CPU`;
    const ratios =
      key === 'today' ? '' : ` — ${(wall / baseWall).toFixed(2)}× wall, ${(cpu / baseCpu).toFixed(2)}× CPU`;
    printRow(label, `${rate}, ${perLine}${ratios}`);
  };
  console.log(
    `${COUNT} appends, median of ${ROUNDS} interleaved rounds; today = the writer at ${BASELINE_REV}; CPU = the main thread's`,
  );
  row('append, line by line: today', 'today', 0);
  row('  + chain + identity', 'chain', 0);
  row('  + chain + identity + export', 'exported', 0);
  row(`appendSoon, turns of ${TURN}: today`, 'today', 1);
  row('  + chain + identity', 'chain', 1);
  row('  + chain + identity + export', 'exported', 1);
  // A burst faster than the worker sends fills its queue: lines over 8 192 waiting are dropped (counted).
  printRow(
    'export: lines sent / failed / dropped',
    `${sent.toLocaleString('en')} / ${failed} / ${dropped.toLocaleString('en')} (${await collector.requests()} requests)`,
  );
} finally {
  collector.close();
  rmSync(root, { recursive: true, force: true });
}
