// The audit browser and `warden audit --limit 20` on a day of 200 000 records (~100 MB): opening at
// the newest page, a search per keystroke, and the CLI's newest 20 — against the simplest
// alternative, the previous design: read and parse the whole day, then filter every record
// (JSON.stringify per record per keystroke).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryAuditPage, readAuditPageSync } from '../src/audit/audit-page';
import { dayStats } from '../src/audit/day-stats';
import { scanAudit } from '../src/audit/reader';
import { auditStats } from '../src/audit/stats';
import type { AuditRecord } from '../src/protocol/audit';
import { median, printRow, timeRuns } from './stats';

const RECORDS = 200_000;
const DAY = '2026-11-30';
const NOW = new Date(`${DAY}T23:00:00Z`);
const PAGE = 200;

function record(i: number): AuditRecord {
  return {
    ts: new Date(Date.UTC(2026, 10, 30, 0, 0, 0, i * 400)).toISOString(),
    sessionId: `s${i % 7}`,
    requestId: `req-${i}`,
    agentId: i % 5 ? 'main' : `sub-${i % 13}`,
    taskId: `task-${i >> 6}`,
    tool: ['execute_command', 'write_file', 'read_file', 'edit_file'][i % 4] ?? 'x',
    args: { command: `npm test -- --grep "case ${i}"`, cwd: '/home/user/project' },
    argsHash: '3f786850e387550fdab836ed7e6dc881de23001b3f786850e387550fdab836ed',
    decision: 'ask',
    approver: (['human', 'policy', 'grant'] as const)[i % 3] ?? 'human',
    outcome: (['executed', 'rejected', 'skipped'] as const)[i % 3] ?? 'executed',
    phase: 'outcome',
    rule: 'ask-commands',
    risk: 'medium',
    waitMs: i % 5000,
    durationMs: 5120,
    result: `exit 0\n ✓ 42 tests passed in ${i}ms`,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'warden-audit-browser-bench-'));
try {
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) lines.push(JSON.stringify(record(i)));
  writeFileSync(join(dir, `audit-${DAY}.jsonl`), `${lines.join('\n')}\n`);
  lines.length = 0;
  const query = { from: DAY, to: DAY };

  // The previous design: the whole day parsed and its stats counted before the first row showed.
  let all: AuditRecord[] = [];
  const oldOpen = median(
    await timeRuns(2, () => {
      all = scanAudit(dir, query, NOW).records;
      auditStats(all);
    }),
  );
  const newOpen = median(
    await timeRuns(9, () => queryAuditPage(dir, { ...query, limit: PAGE }, { limit: PAGE, now: NOW })),
  );
  const statsFirst = median(await timeRuns(1, () => dayStats(dir, DAY)));
  const statsCached = median(await timeRuns(5, () => dayStats(dir, DAY)));
  printRow(`/audit open, ${RECORDS.toLocaleString('en')} records in the day`, `${newOpen.toFixed(1)} ms`);
  printRow(
    '  previous: read the whole day + stats',
    `${oldOpen.toFixed(0)} ms (${(oldOpen / newOpen).toFixed(0)}× slower)`,
  );
  printRow(
    '  day stats, counted after the page shows',
    `${statsFirst.toFixed(0)} ms; again (cached) ${statsCached.toFixed(2)} ms`,
  );

  const searches: [string, string][] = [
    ['common (every record)', 'npm test'],
    ['a filter-like word (1 in 3)', 'rejected'],
    ['rare (1 record)', 'passed in 123457ms'],
    ['no match', 'no such text'],
  ];
  for (const [label, text] of searches) {
    const needle = text.toLowerCase();
    const oldKey = median(
      await timeRuns(2, () => all.filter((r) => JSON.stringify(r).toLowerCase().includes(needle))),
    );
    const newKey = median(
      await timeRuns(5, () =>
        queryAuditPage(dir, { ...query, text, limit: PAGE }, { limit: PAGE, now: NOW }),
      ),
    );
    printRow(
      `/audit search per key, ${label}`,
      `${newKey.toFixed(1)} ms (previous ${oldKey.toFixed(0)} ms, ${(oldKey / newKey).toFixed(1)}×)`,
    );
  }

  const oldCli = median(await timeRuns(2, () => scanAudit(dir, { ...query, limit: 20 }, NOW)));
  const newCli = median(
    await timeRuns(9, () => readAuditPageSync(dir, { ...query, limit: 20 }, { limit: 20, now: NOW })),
  );
  printRow(
    'warden audit --limit 20 (records read)',
    `${newCli.toFixed(2)} ms (previous ${oldCli.toFixed(0)} ms, ${(oldCli / newCli).toFixed(0)}×)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
