import type { Approver, Outcome } from '../protocol';
import { formatAuditSummary, formatAuditTable } from './format';
import { formatApprovalMetrics } from './metrics-format';
import { describeUnreadable, listAuditDays, scanAudit } from './reader';
import { auditStats } from './stats';
import { safeJsonLine } from '../text/safe-output';
import type { AuditQuery, AuditRecord } from '../protocol/audit';
import { readAuditPageSync } from './audit-page';
import { verifyDays } from './chain/verify';
import { verifyReport } from './chain/verify-report';
import { exportLine, readExportDay } from './export/export-notes';
import { sanitizeText } from '../text/sanitize';

type Sink = { write(text: string): unknown };

export type AuditCliIo = {
  stdout: Sink;
  stderr: Sink;
  /** `$WARDEN_HOME/audit`. */
  auditDir: string;
  now?: Date;
  /** Terminal width for the table; 120 when unknown. */
  columns?: number;
};

const OUTCOMES: readonly Outcome[] = [
  'executed',
  'rejected',
  'skipped',
  'blocked',
  'cancelled',
  'timeout',
  'error',
];
const APPROVERS: readonly Approver[] = ['policy', 'rule', 'grant', 'human', 'none'];

export const AUDIT_HELP = `Usage: warden audit [options]

Shows the audit log: one line per request queued for a person, per decision and per outcome.
Lines that cannot be read (cut short by a full disk, corrupt) are counted on stderr.

Options:
  --date D        day to show: YYYY-MM-DD, today or yesterday (UTC; default today)
  --tool T        only this tool (a trailing * matches a prefix, e.g. mcp__github__*)
  --outcome O     ${OUTCOMES.join(' | ')}
  --approver A    ${APPROVERS.join(' | ')}
  --agent X       only this agent id
  --text S        case-insensitive search in the whole record
  --limit N       only the latest N records
  --json          print JSON lines instead of a table
  --stats         print the approval metrics instead: approval, rejection and edit rates,
                  median and p95 wait, timeout and repeat-request rates, rubber stamps
                  (approvals in under 1 s), how often each rule decided, and — when the log
                  was exported that day — how many lines were sent, failed and dropped
  --verify        check the hash chain of every day file (with --date, that day and its link
                  to the day before): prints the first line changed, removed or inserted and
                  exits 1, or OK and the count of lines
  -h, --help      show this help
`;

type CliOptions = {
  query: AuditQuery;
  day: string;
  json: boolean;
  help: boolean;
  stats?: boolean;
  verify?: boolean;
  /** `--date` was given (else `day` is today). */
  dated?: boolean;
};
type Parsed = { ok: true; options: CliOptions } | { ok: false; error: string };

const VALUE_FLAGS = ['--date', '--tool', '--outcome', '--approver', '--agent', '--text', '--limit'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const isValueFlag = (flag: string): flag is ValueFlag => (VALUE_FLAGS as readonly string[]).includes(flag);

/**
 * `warden audit …`: prints the day's records as a table (or JSON lines) and returns the exit code:
 * 0 (also when nothing matched), 2 for a bad flag or value. Unreadable lines (torn by a failed
 * write, corrupt) are counted and located on stderr.
 * Contract: never throws.
 */
export function runAuditCli(argv: readonly string[], io: AuditCliIo): number {
  const now = io.now ?? new Date();
  const parsed = parseAuditArgs(argv, now);
  if (!parsed.ok) {
    io.stderr.write(`warden audit: ${parsed.error}\nRun 'warden audit --help' for the options.\n`);
    return 2;
  }
  const { options } = parsed;
  if (options.help) {
    io.stdout.write(AUDIT_HELP);
    return 0;
  }
  if (options.verify) {
    const all = listAuditDays(io.auditDir);
    const days = options.dated ? all.filter((d) => d === options.day) : all;
    const where = options.dated ? `for ${options.day} ` : '';
    const report = verifyReport(
      verifyDays(io.auditDir, days, all),
      `No audit day files ${where}in ${io.auditDir}.`,
    );
    io.stdout.write(report.text);
    return report.code;
  }
  const { records, unreadable } = readRecords(io.auditDir, options.query, now);
  // Lines that hold no record are counted, never silently dropped (stderr: stdout stays parseable).
  if (unreadable) io.stderr.write(`warden audit: ${unreadable}\n`);
  if (options.stats) {
    // With --json the metrics are one JSON object; otherwise aligned lines. The export's counts (when
    // a session exported that day) come from its notes beside the day files.
    const stats = auditStats(records);
    const exported = readExportDay(io.auditDir, options.day);
    if (options.json) io.stdout.write(safeJsonLine(exported ? { ...stats, export: exported } : stats));
    else {
      io.stdout.write(formatApprovalMetrics(stats, options.day));
      if (exported) io.stdout.write(`${sanitizeText(exportLine(exported))}\n`);
    }
    return 0;
  }
  if (options.json) {
    // Records hold model-written text: escape what JSON leaves raw (C1, bidi) so a terminal acts on none of it.
    io.stdout.write(records.map((r) => safeJsonLine(r)).join(''));
    return 0;
  }
  if (records.length === 0) {
    const { tool, outcome, approver, agent, text } = options.query;
    const filtered = [tool, outcome, approver, agent, text].some((v) => v !== undefined)
      ? ' matching these filters'
      : '';
    io.stdout.write(`No audit records${filtered} for ${options.day} in ${io.auditDir}.\n`);
    return 0;
  }
  io.stdout.write(formatAuditTable(records, io.columns ?? 120));
  io.stdout.write(formatAuditSummary(auditStats(records)));
  return 0;
}

/**
 * The records to print, oldest first, and a sentence about unreadable lines (empty when none).
 * With `--limit`, only the newest records are read, from the file's end, so the answer costs the
 * same on a day of 200 000 records as on a day of 20; unreadable lines are then counted in the
 * part read, and the whole day's scan (without `--limit`) locates them.
 */
function readRecords(
  dir: string,
  query: AuditQuery,
  now: Date,
): { records: AuditRecord[]; unreadable: string } {
  if (query.limit === undefined) {
    const scan = scanAudit(dir, query, now);
    return { records: scan.records, unreadable: describeUnreadable(scan.unreadable) };
  }
  const page = readAuditPageSync(dir, query, { limit: query.limit, now });
  const n = page.unreadable;
  return {
    records: page.records.reverse(),
    unreadable:
      n === 0
        ? ''
        : `${n} unreadable audit line${n === 1 ? '' : 's'} among the latest read, not shown; run without --limit to locate them.`,
  };
}

/** Parses the flags after `audit`; accepts `--flag value` and `--flag=value`. */
export function parseAuditArgs(argv: readonly string[], now: Date): Parsed {
  const options: CliOptions = { query: {}, day: isoDay(now), json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (
      flag === '--json' ||
      flag === '-h' ||
      flag === '--help' ||
      flag === '--stats' ||
      flag === '--verify'
    ) {
      if (eq > 0) return { ok: false, error: `${flag} takes no value` };
      if (flag === '--stats') options.stats = true;
      else if (flag === '--verify') options.verify = true;
      else if (flag === '--json') options.json = true;
      else options.help = true;
      continue;
    }
    if (!isValueFlag(flag)) {
      return {
        ok: false,
        error: arg.startsWith('-') ? `unknown flag ${flag}` : `unexpected argument '${arg}'`,
      };
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('-')))
      return { ok: false, error: `${flag} needs a value` };
    const error = applyFlag(options, flag, value, now);
    if (error) return { ok: false, error: `${flag} ${JSON.stringify(value)}: ${error}` };
  }
  options.query.from = options.day;
  options.query.to = options.day;
  return { ok: true, options };
}

function applyFlag(options: CliOptions, flag: ValueFlag, value: string, now: Date): string | undefined {
  const { query } = options;
  switch (flag) {
    case '--date': {
      const day = parseDay(value, now);
      if (!day) return 'expected a date YYYY-MM-DD, today or yesterday';
      options.day = day;
      options.dated = true;
      return undefined;
    }
    case '--outcome':
      if (!OUTCOMES.includes(value as Outcome)) return `expected one of ${OUTCOMES.join(', ')}`;
      query.outcome = value as Outcome;
      return undefined;
    case '--approver':
      if (!APPROVERS.includes(value as Approver)) return `expected one of ${APPROVERS.join(', ')}`;
      query.approver = value as Approver;
      return undefined;
    case '--limit':
      if (!/^[1-9]\d{0,8}$/.test(value)) return 'expected a whole number of at least 1';
      query.limit = Number(value);
      return undefined;
    case '--tool':
    case '--agent':
    case '--text':
      if (value.trim() === '') return 'expected a non-empty value';
      query[flag.slice(2) as 'tool' | 'agent' | 'text'] = value;
      return undefined;
  }
}

const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** `YYYY-MM-DD` (a real calendar day), `today` or `yesterday`, in UTC like the day files. */
export function parseDay(value: string, now: Date): string | undefined {
  if (value === 'today') return isoDay(now);
  if (value === 'yesterday') return isoDay(new Date(now.getTime() - 86_400_000));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && isoDay(new Date(time)) === value ? value : undefined;
}
