import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../src/protocol';
import { AuditQueries } from '../../src/session/audit-queries';
import { makeTemp, record, writeDays } from '../audit/helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
  const today = new Date().toISOString().slice(0, 10);
  writeDays(dir, {
    [today]: Array.from({ length: 300 }, (_, i) =>
      record({ requestId: `r${i}`, result: i === 7 ? 'needle' : 'ok' }),
    ),
  });
});
afterEach(() => cleanup());

describe('AuditQueries', () => {
  it('answers a page (200 by default, newest first) and then the day stats', async () => {
    const events: CoreEvent[] = [];
    new AuditQueries(dir, (e) => events.push(e)).run('q1', {}, undefined, true);
    await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(['audit_result', 'audit_stats']));
    const [page, stats] = events;
    expect(page?.type === 'audit_result' && page.records.length).toBe(200);
    expect(page?.type === 'audit_result' && page.records[0]?.requestId).toBe('r299');
    expect(page?.type === 'audit_result' && page.before).toBeDefined();
    expect(stats?.type === 'audit_stats' && stats.stats.total).toBe(300);
  });

  it('a newer query supersedes an unanswered one, which is never answered', async () => {
    const events: CoreEvent[] = [];
    const queries = new AuditQueries(dir, (e) => events.push(e));
    queries.run('old', { text: 'needle' }, undefined, false);
    queries.run('new', { text: 'needle' }, undefined, false);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ type: 'audit_result', queryId: 'new' });
    expect(events[0]?.type === 'audit_result' && events[0].records.map((r) => r.requestId)).toEqual(['r7']);
  });
});
