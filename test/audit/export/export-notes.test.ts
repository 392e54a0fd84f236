/** The export's counts kept beside the log for `warden audit --stats`: each session's latest note, added up. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportLine, readExportDay, writeExportNote } from '../../../src/audit/export/export-notes';
import { makeTemp, runCli } from '../helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanups.splice(0)) f();
});

const DAY = '2025-01-03';
const note = (
  sessionId: string,
  t: string,
  counts: { sent: number; failed: number; dropped?: number },
  lastError?: string,
) => ({
  ts: `${DAY}T${t}.000Z`,
  sessionId,
  endpoint: 'http://c:4318/v1/logs',
  dropped: 0,
  ...counts,
  ...(lastError ? { lastError } : {}),
});

describe('export notes', () => {
  it("a day's summary: each session's latest counts, added up, the latest error; lines that are not notes skipped", () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    writeExportNote(t.dir, note('a', '10:00:00', { sent: 5, failed: 1 }, 'connect ECONNREFUSED'));
    writeExportNote(t.dir, note('a', '10:05:00', { sent: 9, failed: 1 }, 'connect ECONNREFUSED'));
    writeExportNote(t.dir, note('b', '11:00:00', { sent: 3, failed: 0, dropped: 2 }));
    appendFileSync(join(t.dir, `export-${DAY}.jsonl`), 'not json\n{"ts":1}\n');
    const day = readExportDay(t.dir, DAY);
    expect(day).toEqual({
      sessions: 2,
      endpoint: 'http://c:4318/v1/logs',
      sent: 12,
      failed: 1,
      dropped: 2,
      lastError: 'connect ECONNREFUSED',
    });
    expect(exportLine(day ?? { endpoint: '', sent: 0, failed: 0, dropped: 0 })).toBe(
      'export to http://c:4318/v1/logs: 12 sent, 1 failed, 2 dropped over 2 sessions (last error: connect ECONNREFUSED)',
    );
    expect(readExportDay(t.dir, '2025-01-04')).toBeUndefined();
  });

  it('warden audit --stats shows them; --json carries them as `export`', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    writeExportNote(t.dir, note('a', '10:00:00', { sent: 4, failed: 2 }, 'Bad Gateway'));
    const text = runCli(t.dir, ['--stats', '--date', DAY]);
    expect(text.out).toContain(
      'export to http://c:4318/v1/logs: 4 sent, 2 failed, 0 dropped (last error: Bad Gateway)',
    );
    const json = runCli(t.dir, ['--stats', '--json', '--date', DAY]);
    expect(JSON.parse(json.out)).toMatchObject({ export: { sent: 4, failed: 2, sessions: 1 } });
  });
});
