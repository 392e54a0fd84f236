/**
 * `warden approve ID`, `warden reject ID --reason …`, `warden skip ID`: a person's answer to a waiting
 * request, given from another terminal (or later, for a parked run). The answer is signed and bound to
 * the request as the session file holds it (answer.ts); the warden that holds the session applies it
 * after the same checks as any decision, and says back whether it did.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { type AnswerBody, type AnswerDecision, signAnswer } from '../../answers/answer';
import { localIdentity } from '../../answers/identity';
import { type AnswerResult, answerFile, answersDir, resultFile } from '../../answers/inbox';
import { loadOrCreateKey, readKey, readKeyFile, type SigningKey } from '../../answers/signing-key';
import { callLine } from '../../text/call-line';
import { sanitizeText } from '../../text/sanitize';
import { truncateChars } from '../../text/truncate';
import { type WaitingEntry, waitingEntries } from './pending-cli';

export type AnswerVerb = 'approve' | 'reject' | 'skip';

export type AnswerCliIo = {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  home: string;
  now?: () => number;
  /** How long to wait for a running warden to say it took the answer. */
  waitMs?: number;
  /** Resolves after `ms` (tests pass their own clock). */
  delay?: (ms: number) => Promise<void>;
};

/** An answer with no expiry of its own is good for this long (a parked run may be resumed tomorrow). */
const DEFAULT_VALID_MS = 24 * 60 * 60 * 1000;
const DEFAULT_WAIT_MS = 10_000;
const POLL_MS = 20;

const HELP: Record<AnswerVerb, string> = {
  approve: `warden approve ID [--reason TEXT] [--confirm-high] [--key FILE] [--no-wait]
  Approves the waiting request ID (see 'warden pending'; a unique prefix of the id is enough).
  --confirm-high   needed for a high-risk call: the second confirmation the app asks for with y y
  --reason TEXT    kept in the audit with the decision
  --key FILE       sign with this Ed25519 private key (PEM) instead of yours: a registered approver's,
                   the second person a two-person card needs ('warden key' prints a key's public half)
  --no-wait        do not wait for the running warden to say it took the answer
`,
  reject: `warden reject ID --reason TEXT [--key FILE] [--no-wait]
  Rejects the waiting request ID; the reason reaches the model.
`,
  skip: `warden skip ID [--key FILE] [--no-wait]
  Skips the waiting request ID: the call does not run, and the agent goes on.
`,
};

type Parsed = { id: string; reason?: string; confirmHigh: boolean; wait: boolean; keyFile?: string };

/** Runs `warden <verb> …`. Returns the exit code: 0 applied or recorded, 1 refused or not taken, 2 bad use. Contract: never throws. */
export async function runAnswerCli(
  verb: AnswerVerb,
  argv: readonly string[],
  io: AnswerCliIo,
): Promise<number> {
  const parsed = parse(verb, argv);
  if (parsed === 'help') {
    io.stdout.write(HELP[verb]);
    return 0;
  }
  if (typeof parsed === 'string') {
    io.stderr.write(`warden ${verb}: ${parsed}\nRun 'warden ${verb} --help'.\n`);
    return 2;
  }
  const now = io.now ?? Date.now;
  const found = findRequest(io.home, parsed.id);
  if (typeof found === 'string') {
    io.stderr.write(`warden ${verb}: ${found}\n`);
    return 1;
  }
  const { request } = found;
  const shown = `${safe(request.agentName)} · ${safe(request.tool)} ${safe(callLine(request.args))} (risk ${request.risk.level}, rule ${safe(request.rule.id)})`;
  if (request.expiresAt && Date.parse(request.expiresAt) <= now()) {
    io.stderr.write(
      `warden ${verb}: request ${request.id} expired at ${request.expiresAt}; nothing to answer.\n`,
    );
    return 1;
  }
  if (verb === 'approve' && request.risk.level === 'high' && !parsed.confirmHigh) {
    io.stderr.write(
      `warden approve: ${shown}\n  is a high-risk call: approve it with --confirm-high (the second confirmation the app asks for).\n`,
    );
    return 2;
  }
  let written: { path: string; keyId?: string };
  try {
    const approveReason = verb === 'approve' ? parsed.reason : undefined;
    const key = parsed.keyFile ? readKeyFile(parsed.keyFile) : loadOrCreateKey(io.home);
    written = writeAnswer(io.home, found, key, decisionOf(verb, parsed), approveReason, now());
  } catch (err) {
    io.stderr.write(`warden ${verb}: the answer could not be written: ${(err as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`${pastTense(verb)}: ${shown}\n`);
  if (found.pid === undefined) {
    io.stdout.write(
      `  No warden holds session ${found.sessionId} now: the answer applies when it is resumed\n  (in ${safe(found.project)}: warden --headless --resume ${found.sessionId}, or warden --resume ${found.sessionId}).\n`,
    );
    return 0;
  }
  if (!parsed.wait) {
    io.stdout.write(
      `  Written to ${written.path}; the warden holding the session (pid ${found.pid}) picks it up.\n`,
    );
    return 0;
  }
  const result = await awaitResult(io, resultFile(io.home, request.id, written.keyId), now);
  if (!result) {
    io.stderr.write(
      `warden ${verb}: the warden holding the session (pid ${found.pid}) has not taken the answer within ${Math.round((io.waitMs ?? DEFAULT_WAIT_MS) / 1000)} s; it stays in ${written.path} until it does.\n`,
    );
    return 1;
  }
  if (!result.ok) {
    io.stderr.write(
      `warden ${verb}: not applied (${result.code ?? 'refused'}): ${safe(result.text)}. Nothing ran.\n`,
    );
    return 1;
  }
  io.stdout.write(
    result.waiting
      ? `  The warden holding the session (pid ${result.pid}) took it as the first of two approvals: it waits for a second person (another identity).\n`
      : `  The warden holding the session (pid ${result.pid}) took it.\n`,
  );
  return 0;
}

function parse(verb: AnswerVerb, argv: readonly string[]): Parsed | 'help' | string {
  let id: string | undefined;
  let reason: string | undefined;
  let confirmHigh = false;
  let wait = true;
  let keyFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--confirm-high' && verb === 'approve') confirmHigh = true;
    else if (arg === '--no-wait') wait = false;
    else if (arg === '--key' || arg.startsWith('--key=')) {
      const value = arg === '--key' ? argv[++i] : arg.slice('--key='.length);
      if (value === undefined || value.trim() === '') return '--key needs a file';
      keyFile = value;
    } else if (arg === '--reason' || arg.startsWith('--reason=')) {
      const value = arg === '--reason' ? argv[++i] : arg.slice('--reason='.length);
      if (value === undefined || value.trim() === '') return '--reason needs a text';
      if (verb === 'skip') return 'skip takes no reason';
      reason = value;
    } else if (arg.startsWith('-')) return `unknown option ${sanitizeText(arg)}`;
    else if (id === undefined) id = arg;
    else return `one request id at a time (got ${sanitizeText(arg)} as well)`;
  }
  if (id === undefined) return "give the request's id (see 'warden pending')";
  if (!/^[0-9a-f-]{6,36}$/i.test(id)) return `"${sanitizeText(id)}" is not a request id`;
  if (verb === 'reject' && reason === undefined)
    return 'a rejection needs --reason TEXT (the model reads it)';
  return {
    id,
    ...(reason !== undefined ? { reason } : {}),
    confirmHigh,
    wait,
    ...(keyFile !== undefined ? { keyFile } : {}),
  };
}

/** The one waiting request whose id is `id`, or starts with it. */
function findRequest(home: string, id: string): WaitingEntry | string {
  const all = waitingEntries(home);
  const exact = all.find((e) => e.request.id === id);
  if (exact) return exact;
  const matches = all.filter((e) => e.request.id.startsWith(id.toLowerCase()));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1) return `${matches.length} waiting requests start with ${id}; give more of the id.`;
  return `no waiting request ${id} (see 'warden pending'); it may have been answered or expired.`;
}

function decisionOf(verb: AnswerVerb, p: Parsed): AnswerDecision {
  if (verb === 'approve') return p.confirmHigh ? { kind: 'approve', confirmHigh: true } : { kind: 'approve' };
  if (verb === 'reject') return { kind: 'reject', reason: p.reason ?? '' };
  return { kind: 'skip' };
}

/**
 * Signs the answer with `key` and puts it in place whole (written aside, then renamed): as
 * `<id>.json` when the key is this user's own, as `<id>.<keyId>.json` when it is another's (a second
 * person's). Returns its path, and the other key's id.
 */
function writeAnswer(
  home: string,
  entry: WaitingEntry,
  key: SigningKey,
  decision: AnswerDecision,
  reason: string | undefined,
  nowMs: number,
): { path: string; keyId?: string } {
  const { request } = entry;
  const other = key.keyId === readKey(home)?.keyId ? undefined : key.keyId;
  const body: AnswerBody = {
    v: 1,
    requestId: request.id,
    sessionId: entry.sessionId,
    argsHash: request.argsHash,
    ...(request.preImageHash ? { preImageHash: request.preImageHash } : {}),
    ...(request.policyDigest ? { policyDigest: request.policyDigest } : {}),
    decision,
    by: { ...localIdentity('cli'), ...(reason !== undefined ? { reason } : {}) },
    issuedAt: new Date(nowMs).toISOString(),
    validUntil: request.expiresAt ?? new Date(nowMs + DEFAULT_VALID_MS).toISOString(),
  };
  const answer = signAnswer(body, key);
  mkdirSync(answersDir(home), { recursive: true, mode: 0o700 });
  const path = answerFile(home, request.id, other);
  try {
    unlinkSync(resultFile(home, request.id, other));
  } catch {
    // No earlier result.
  }
  writeFileSync(`${path}.${process.pid}.tmp`, `${JSON.stringify(answer)}\n`, { mode: 0o600 });
  renameSync(`${path}.${process.pid}.tmp`, path);
  return { path, ...(other ? { keyId: other } : {}) };
}

async function awaitResult(
  io: AnswerCliIo,
  path: string,
  now: () => number,
): Promise<AnswerResult | undefined> {
  const deadline = now() + (io.waitMs ?? DEFAULT_WAIT_MS);
  const delay = io.delay ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (;;) {
    if (existsSync(path)) {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as AnswerResult;
      } catch {
        // Being renamed into place: look again.
      }
    }
    if (now() >= deadline) return undefined;
    await delay(POLL_MS);
  }
}

const pastTense = (verb: AnswerVerb): string =>
  verb === 'approve' ? 'Approved' : verb === 'reject' ? 'Rejected' : 'Skipped';

/** Session files hold model text: made safe to print, one line. */
const safe = (text: string): string => truncateChars(sanitizeText(text).replace(/\s+/g, ' '), 160);
