/**
 * Where warden picks up answers given elsewhere: `$WARDEN_HOME/answers/<requestId>.json`, written by
 * `warden approve|reject|skip` with this user's own key, and `<requestId>.<keyId>.json` signed with
 * another key (a registered approver's: a card that needs two people takes two). `AnswerBox.take`
 * reads and checks the answers for one request (a refused one is reported and used up; it never runs
 * anything). Two paths use it: the gate's queue, when nobody is there to ask (a headless run resumed
 * after its card was answered), and the folder watch of a running app (`watchAnswers`). Either way a
 * `<requestId>[.<keyId>].result.json` tells the answering terminal what became of it.
 */
import {
  type FSWatcher,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRequest, CoreEvent, DecidedBy, Decision } from '../protocol';
import { ANSWER_MAX_BYTES, parseAnswer, type SignedAnswer } from './answer';
import { answerRefusal, decisionOf, signerOf } from './answer-check';
import type { Approvers } from './approvers';
import { identityLine } from './identity';
import { readKey } from './signing-key';

export const answersDir = (home: string): string => join(home, 'answers');
/** `<requestId>.json`, or `<requestId>.<keyId>.json` for an answer signed with another key than this user's. */
export const answerFile = (home: string, requestId: string, keyId?: string): string =>
  join(answersDir(home), `${requestId}${keyId ? `.${keyId}` : ''}.json`);
export const resultFile = (home: string, requestId: string, keyId?: string): string =>
  join(answersDir(home), `${requestId}${keyId ? `.${keyId}` : ''}.result.json`);

/** One answer file: the request it answers, and the key its name says signed it (absent: this user's own). */
type AnswerName = { id: string; keyId?: string };

const OTHER_KEY = /^\.([0-9a-f]{16})\.json$/;

/** What the answering terminal reads back. */
export type AnswerResult = {
  requestId: string;
  ok: boolean;
  /** The request it was applied to (a new id after a restart). */
  appliedTo?: string;
  code?: string;
  text: string;
  /** An approval that counted as the first of two: the card waits for a second person. */
  waiting?: true;
  pid: number;
  at: string;
};

type DecideResult = { ok: true; waiting?: true } | { ok: false; error: string; code?: string };

/** An answer that passed its checks, to be handed to the gate; `done` reports what the gate said. */
export type TakenAnswer = { decision: Decision; by: DecidedBy; done(result: DecideResult): void };

export type AnswerBoxOptions = {
  home: string;
  sessionId: string;
  /** The digest of the policy in force now. */
  policyDigest: () => string;
  emit: (event: CoreEvent) => void;
  now?: () => number;
  /** The registered approvers' keys: an answer signed by one is another identity than this user. */
  approvers?: Approvers;
};

/** Reads, checks and uses up the answers for this session's requests. Contract: never throws. */
export class AnswerBox {
  constructor(private readonly o: AnswerBoxOptions) {}

  /**
   * The answers waiting for `request` (by its id, or the id it had before a restart), checked, in the
   * order they apply: this user's own first, then others' by when they were given.
   */
  take(request: ApprovalRequest): TakenAnswer[] {
    const found: { name: AnswerName; answer: SignedAnswer; foreign: boolean }[] = [];
    for (const id of new Set([request.id, request.resumedFrom?.requestId])) {
      if (id === undefined) continue;
      for (const name of this.namesFor(id)) {
        const read = this.read(name);
        if (read) found.push({ name, ...read });
      }
    }
    found.sort(
      (a, b) =>
        Number(a.name.keyId !== undefined) - Number(b.name.keyId !== undefined) ||
        a.answer.issuedAt.localeCompare(b.answer.issuedAt),
    );
    return found.flatMap((f) => this.check(f.name, f.answer, request, f.foreign) ?? []);
  }

  /** The answer files of request `id`. */
  private namesFor(id: string): AnswerName[] {
    let names: string[];
    try {
      names = readdirSync(answersDir(this.o.home));
    } catch {
      return [];
    }
    return names.flatMap((file): AnswerName[] => {
      if (file === `${id}.json`) return [{ id }];
      const other = file.startsWith(`${id}.`) ? OTHER_KEY.exec(file.slice(id.length)) : null;
      return other?.[1] ? [{ id, keyId: other[1] }] : [];
    });
  }

  private read(name: AnswerName): { answer: SignedAnswer; foreign: boolean } | undefined {
    const path = answerFile(this.o.home, name.id, name.keyId);
    let text: string;
    let foreign: boolean;
    try {
      const st = lstatSync(path);
      // A regular file only: a link could point anywhere. Another user's file counts only when a
      // registered approver signed it (checked with the signature).
      if (!st.isFile()) return this.refuse(name, 'unsigned', 'the answer file is not a regular file');
      foreign = process.getuid !== undefined && st.uid !== process.getuid();
      if (st.size > ANSWER_MAX_BYTES) return this.refuse(name, 'unsigned', 'the answer file is too large');
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseAnswer(text);
    if (!parsed.ok) return this.refuse(name, 'unsigned', parsed.error);
    // Another warden's session: not this one's to apply or refuse.
    if (parsed.answer.sessionId !== this.o.sessionId) return undefined;
    if (name.keyId !== undefined && parsed.answer.keyId !== name.keyId)
      return this.refuse(name, 'unsigned', "the file's name names another key than the one that signed it");
    return { answer: parsed.answer, foreign };
  }

  private check(
    name: AnswerName,
    answer: SignedAnswer,
    request: ApprovalRequest,
    foreign: boolean,
  ): TakenAnswer | undefined {
    const world = {
      sessionId: this.o.sessionId,
      policyDigest: this.o.policyDigest(),
      nowMs: (this.o.now ?? Date.now)(),
      key: readKey(this.o.home),
      ...(this.o.approvers ? { approvers: this.o.approvers } : {}),
    };
    const refusal = answerRefusal(answer, request, world, foreign);
    if (refusal) return this.refuse(name, refusal.code, refusal.text, answer);
    const signer = signerOf(answer, world);
    // What the signer says of themselves (user, host, reason), never what only warden may say.
    const { keyName: _name, keyId: _id, hook: _hook, channel: _channel, ...claimed } = answer.by;
    const by: DecidedBy = {
      ...claimed,
      channel: 'cli',
      keyId: answer.keyId,
      ...(signer?.kind === 'approver' ? { keyName: signer.approver.name } : {}),
    };
    const verb = { approve: 'approved', reject: 'rejected', skip: 'skipped' }[answer.decision.kind];
    return {
      decision: decisionOf(answer),
      by,
      done: (result) => {
        if (!result.ok) {
          this.refuse(name, result.code ?? 'refused', result.error, answer);
          return;
        }
        const waiting = result.waiting === true;
        const text = waiting
          ? `approved ${request.tool} as the first of two approvals; it waits for a second person (another identity)`
          : `${verb} ${request.tool}`;
        this.finish(name, { ok: true, appliedTo: request.id, text, ...(waiting ? { waiting: true } : {}) });
        this.o.emit({
          type: 'notice',
          level: 'info',
          code: 'answered_elsewhere',
          text: waiting
            ? `${request.tool} approved from another terminal by ${identityLine(by)}: it needs a second person's approval.`
            : `${request.tool} ${verb} from another terminal by ${identityLine(by)}.`,
        });
      },
    };
  }

  private refuse(name: AnswerName, code: string, text: string, answer?: SignedAnswer): undefined {
    this.finish(name, { ok: false, code, text });
    this.o.emit({
      type: 'notice',
      level: 'warn',
      code: 'answered_elsewhere',
      text: `An answer from another terminal${answer ? ` by ${identityLine(answer.by)}` : ''} did not apply (${code}): ${text}. Nothing ran on it.`,
    });
    return undefined;
  }

  /** Writes the result the answering terminal waits for, and removes the answer: it is used up. */
  private finish(name: AnswerName, result: Omit<AnswerResult, 'requestId' | 'pid' | 'at'>): void {
    const full: AnswerResult = {
      requestId: name.id,
      ...result,
      pid: process.pid,
      at: new Date().toISOString(),
    };
    const path = resultFile(this.o.home, name.id, name.keyId);
    try {
      writeFileSync(`${path}.tmp`, `${JSON.stringify(full)}\n`, { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    } catch {
      // The answering terminal then says it heard nothing back; the decision (or refusal) stands.
    }
    try {
      unlinkSync(answerFile(this.o.home, name.id, name.keyId));
    } catch {
      // Already gone.
    }
  }
}

/** The gate's side the watch uses: what waits, and the decision. */
export type WatchedGate = {
  pending(): readonly ApprovalRequest[];
  decide(id: string, decision: Decision, by: DecidedBy): DecideResult;
};

/** While anything waits, the folder is also looked at this often (a watch can miss a network file system). */
const POLL_MS = 1000;

/**
 * Applies answers to the requests waiting in a running warden: looked for when a request is
 * announced, and whenever the folder changes while requests wait. Returns the event listener and
 * `close`. Contract: never throws.
 */
export function watchAnswers(
  box: AnswerBox,
  gate: WatchedGate,
  home: string,
): { onEvent(event: CoreEvent): void; close(): void } {
  let watcher: FSWatcher | undefined;
  let poll: NodeJS.Timeout | undefined;
  let closed = false;
  const scan = (): void => {
    for (const request of gate.pending())
      for (const taken of box.take(request)) taken.done(gate.decide(request.id, taken.decision, taken.by));
  };
  const start = (): void => {
    if (poll || closed) return;
    try {
      mkdirSync(answersDir(home), { recursive: true, mode: 0o700 });
      watcher = watch(answersDir(home), { persistent: false }, scan);
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // No watch (the folder cannot be made): the poll still looks.
    }
    poll = setInterval(scan, POLL_MS);
    poll.unref();
  };
  const stop = (): void => {
    watcher?.close();
    watcher = undefined;
    clearInterval(poll);
    poll = undefined;
  };
  return {
    onEvent(event) {
      if (closed) return;
      if (event.type === 'approval_requested')
        // After the announcement has reached every listener: an answer found at once resolves a card
        // the UI has already been told of.
        queueMicrotask(() => {
          if (closed) return;
          scan();
          if (gate.pending().length > 0) start();
        });
      else if (event.type === 'approval_resolved' && gate.pending().length === 0) stop();
    },
    close() {
      closed = true;
      stop();
    },
  };
}
