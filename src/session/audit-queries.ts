import { queryAuditPage } from '../audit/audit-page';
import { dayStats } from '../audit/day-stats';
import type { AuditCursor, AuditQuery, CoreEvent } from '../protocol';

/** Records per page when the query names no limit: a few screens of the browser. */
export const AUDIT_PAGE_SIZE = 200;

/**
 * Answers `query_audit`: a page read from the end of the day's file, then (when asked) the day's
 * stats. A newer query aborts the page still being read (a search per keystroke must not queue up
 * ripgrep runs), and the aborted one is never answered; a newer query asking for stats likewise
 * replaces a count still running, while a page alone (a search, the next page) leaves it going.
 */
export class AuditQueries {
  private page: AbortController | undefined;
  private stats: AbortController | undefined;

  constructor(
    private readonly auditDir: string,
    private readonly emit: (event: CoreEvent) => void,
  ) {}

  /** Contract: never throws (the readers never reject). */
  run(queryId: string, query: AuditQuery, before: AuditCursor | undefined, withStats: boolean): void {
    const signal = this.restart('page');
    const limit = query.limit ?? AUDIT_PAGE_SIZE;
    void queryAuditPage(this.auditDir, { ...query, limit }, { limit, before, signal }).then((page) => {
      if (!signal.aborted)
        this.emit({ type: 'audit_result', queryId, records: page.records, before: page.before });
    });
    if (!withStats) return;
    const statsSignal = this.restart('stats');
    const day = query.from ?? query.to ?? new Date().toISOString().slice(0, 10);
    void dayStats(this.auditDir, day, statsSignal).then((stats) => {
      if (stats && !statsSignal.aborted) this.emit({ type: 'audit_stats', queryId, stats });
    });
  }

  private restart(which: 'page' | 'stats'): AbortSignal {
    this[which]?.abort();
    const controller = new AbortController();
    this[which] = controller;
    return controller.signal;
  }
}
