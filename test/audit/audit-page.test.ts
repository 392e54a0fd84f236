import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryAuditPage, readAuditPageSync } from '../../src/audit/audit-page';
import { prefilterNeedle } from '../../src/audit/audit-rg';
import { scanAudit } from '../../src/audit/reader';
import { readLinesBackward } from '../../src/audit/tail-reader';
import type { AuditCursor, AuditQuery, AuditRecord } from '../../src/protocol/audit';
import { makeTemp, record, writeDays } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const DAY = '2025-01-02';
const PREV = '2025-01-01';
const NOW = new Date('2025-01-02T12:00:00Z');

/** Records of a day: several chunks' worth, with wide characters that land on chunk edges. */
function dayOf(day: string, n: number): AuditRecord[] {
  return Array.from({ length: n }, (_, i) =>
    record({
      ts: `${day}T10:00:00.000Z`,
      requestId: `${day}-${i}`,
      agentId: i % 97 === 0 ? 'sub-rare' : 'main',
      tool: ['execute_command', 'write_file', 'mcp__github__issue'][i % 3] ?? 'x',
      outcome: i % 5 === 0 ? 'rejected' : 'executed',
      args: { command: `echo ${i} 你好🙂 ${'x'.repeat(i % 400)}` },
      result: i === 1234 ? 'the NEEDLE-in-the-haystack' : `ok ${i}`,
    }),
  );
}

/** Every page of a query, followed through `before`; records in order newest first. */
async function allPages(
  query: AuditQuery,
  pageSize: number,
  sync = false,
  budget?: number,
): Promise<string[]> {
  const ids: string[] = [];
  let before: AuditCursor | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const options = { limit: pageSize, before, now: NOW, scanBudgetBytes: budget };
    const page = sync ? readAuditPageSync(dir, query, options) : await queryAuditPage(dir, query, options);
    expect(page.records.length).toBeLessThanOrEqual(pageSize);
    ids.push(...page.records.map((r) => r.requestId ?? ''));
    if (!page.before) return ids;
    before = page.before;
  }
  throw new Error('pages never ended');
}

/** What the whole-day reader finds, newest first. */
const reference = (query: AuditQuery): string[] =>
  scanAudit(dir, query, NOW)
    .records.map((r) => r.requestId ?? '')
    .reverse();

const QUERIES: [string, AuditQuery][] = [
  ['no filter', {}],
  ['a common search', { text: 'ECHO 1' }],
  ['a rare search', { text: 'needle-in' }],
  ['a wide-character search', { text: '你好🙂 x' }],
  ['a rare agent', { agent: 'sub-rare' }],
  ['a tool prefix', { tool: 'mcp__github__*' }],
  ['an outcome and a tool', { outcome: 'rejected', tool: 'write_file' }],
  ['nothing matches', { text: 'no such text anywhere' }],
];

describe('audit pages read from the end of the day', () => {
  beforeEach(() => writeDays(dir, { [PREV]: dayOf(PREV, 300), [DAY]: dayOf(DAY, 3000) }));

  it.each(QUERIES)('%s: pages add up to the whole-day answer, newest first, with ripgrep', async (_, q) => {
    const query = { ...q, from: PREV, to: DAY };
    // A tiny in-process budget hands almost every search to ripgrep.
    expect(await allPages(query, 37, false, 64 * 1024)).toEqual(reference(query));
  });

  it.each(QUERIES)('%s: the same pages in process only (warden audit --limit)', async (_, q) => {
    const query = { ...q, from: PREV, to: DAY };
    expect(await allPages(query, 50, true)).toEqual(reference(query));
  });

  it('without ripgrep the search goes on in process and finds the same records', async () => {
    const runner = await import('../../src/os/ripgrep');
    const missing = vi.spyOn(runner, 'resolveRgPath').mockRejectedValue(new Error('no rg'));
    const query = { text: 'needle-in', from: PREV, to: DAY };
    expect(await allPages(query, 10, false, 1024)).toEqual(reference(query));
    expect(missing).toHaveBeenCalled();
  });

  it('the first page of the day is its newest records', async () => {
    const page = await queryAuditPage(dir, {}, { limit: 3, now: NOW });
    expect(page.records.map((r) => r.requestId)).toEqual([`${DAY}-2999`, `${DAY}-2998`, `${DAY}-2997`]);
    expect(page.before?.day).toBe(DAY);
  });

  it('an aborted query resolves with what it had', async () => {
    const controller = new AbortController();
    controller.abort();
    const page = await queryAuditPage(
      dir,
      { text: 'needle-in' },
      { limit: 5, now: NOW, signal: controller.signal },
    );
    expect(page.records.length).toBeLessThanOrEqual(5);
  });
});

describe('a search text is only ever a literal', () => {
  it.each(['--pre={script}', '-e--pre={script}', '--pre', '$(touch {marker})'])(
    '%s reaches ripgrep as a pattern, never as a flag or shell',
    async (template) => {
      writeDays(dir, { [DAY]: dayOf(DAY, 3000) });
      const marker = join(dir, 'ran');
      const script = join(dir, 'pre.sh');
      writeFileSync(script, `#!/bin/sh\ntouch ${marker}\ncat "$1"\n`, { mode: 0o755 });
      const text = template.replace('{script}', script).replace('{marker}', marker);
      const page = await queryAuditPage(dir, { text }, { limit: 5, now: NOW, scanBudgetBytes: 1024 });
      expect(page.records).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    },
  );
});

describe('lines that hold no record', () => {
  it('are counted in the part read: a corrupt line and a torn last line', () => {
    writeDays(dir, {
      [DAY]: [record({ requestId: 'a' }), '{"broken', record({ requestId: 'b' }), '{"torn":'],
    });
    const page = readAuditPageSync(dir, {}, { limit: 10, now: NOW });
    expect(page.records.map((r) => r.requestId)).toEqual(['b', 'a']);
    expect(page.unreadable).toBe(2);
  });

  it('a missing folder or an empty file has no records', async () => {
    expect((await queryAuditPage(join(dir, 'none'), {}, { limit: 5, now: NOW })).records).toEqual([]);
    writeFileSync(join(dir, `audit-${DAY}.jsonl`), '');
    expect((await queryAuditPage(dir, {}, { limit: 5, now: NOW })).records).toEqual([]);
  });
});

describe('readLinesBackward', () => {
  it('returns every line once, newest first, with its byte offset, across chunk edges and long lines', () => {
    const path = join(dir, 'lines.txt');
    const lines = ['first', '', '🙂'.repeat(100_000), 'x'.repeat(600_000), 'wide 你好', 'last'];
    appendFileSync(path, `${lines.join('\n')}\n`);
    const seen: { text: string; start: number }[] = [];
    expect(readLinesBackward(path, (l) => (seen.push(l), 'more'))).toBe(0);
    expect(seen.map((l) => l.text)).toEqual([...lines].reverse());
    let offset = 0;
    const starts = lines.map((l) => {
      const at = offset;
      offset += Buffer.byteLength(l) + 1;
      return at;
    });
    expect(seen.map((l) => l.start)).toEqual([...starts].reverse());
  });

  it('marks only the last line without a newline as open, and stops where asked', () => {
    const path = join(dir, 'open.txt');
    appendFileSync(path, 'a\nb\nc');
    const seen: { text: string; openEnd: boolean }[] = [];
    const stopped = readLinesBackward(path, (l) => (seen.push(l), l.text === 'b' ? 'stop' : 'more'));
    expect(seen).toEqual([
      { text: 'c', start: 4, openEnd: true },
      { text: 'b', start: 2, openEnd: false },
    ]);
    expect(stopped).toBe(2);
  });
});

describe('prefilterNeedle', () => {
  it.each<[AuditQuery, string | undefined]>([
    [{ text: 'Hello' }, 'Hello'],
    [{ agent: 'sub-1' }, '"agentId":"sub-1"'],
    [{ tool: 'mcp__gh__*' }, '"tool":"mcp__gh__'],
    [{ outcome: 'rejected' }, '"outcome":"rejected"'],
    [{ agent: 'quote"d' }, undefined],
    [{ agent: 'ünï' }, undefined],
    [{}, undefined],
  ])('%j → %s', (query, needle) => {
    expect(prefilterNeedle(query)).toBe(needle);
  });
});
