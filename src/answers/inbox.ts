/**
 * Where warden picks up answers given elsewhere: `$WARDEN_HOME/answers/<requestId>.json`, written by
 * `warden approve|reject|skip`. `AnswerBox.take` reads and checks the answer for one request (a
 * refused one is reported and used up; it never runs anything). Two paths use it: the gate's queue,
 * when nobody is there to ask (a headless run resumed after its card was answered), and the folder
 * watch of a running app (`watchAnswers`). Either way a `<requestId>.result.json` tells the answering
 * terminal what became of it.
 */
import {
  type FSWatcher,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRequest, CoreEvent, DecidedBy, Decision } from '../protocol';
import { ANSWER_MAX_BYTES, parseAnswer, type SignedAnswer } from './answer';
import { answerRefusal, decisionOf } from './answer-check';
import { identityLine } from './identity';
import { readKey } from './signing-key';

export const answersDir = (home: string): string => join(home, 'answers');
export const answerFile = (home: string, requestId: string): string =>
  join(answersDir(home), `${requestId}.json`);
export const resultFile = (home: string, requestId: string): string =>
  join(answersDir(home), `${requestId}.result.json`);

/** What the answering terminal reads back. */
export type AnswerResult = {
  requestId: string;
  ok: boolean;
  /** The request it was applied to (a new id after a restart). */
  appliedTo?: string;
  code?: string;
  text: string;
  pid: number;
  at: string;
};

type DecideResult = { ok: true } | { ok: false; error: string };

/** An answer that passed its checks, to be handed to the gate; `done` reports what the gate said. */
export type TakenAnswer = { decision: Decision; by: DecidedBy; done(result: DecideResult): void };

export type AnswerBoxOptions = {
  home: string;
  sessionId: string;
  /** The digest of the policy in force now. */
  policyDigest: () => string;
  emit: (event: CoreEvent) => void;
  now?: () => number;
};

/** Reads, checks and uses up the answers for this session's requests. Contract: never throws. */
export class AnswerBox {
  constructor(private readonly o: AnswerBoxOptions) {}

  /** The answer waiting for `request` (by its id, or the id it had before a restart), checked. */
  take(request: ApprovalRequest): TakenAnswer | undefined {
    for (const id of new Set([request.id, request.resumedFrom?.requestId])) {
      if (id === undefined) continue;
      const answer = this.read(id);
      if (answer) return this.check(id, answer, request);
    }
    return undefined;
  }

  private read(id: string): SignedAnswer | undefined {
    const path = answerFile(this.o.home, id);
    let text: string;
    try {
      const st = lstatSync(path);
      // Only this user's own regular file: a link or another user's file is not an answer.
      if (!st.isFile() || (process.getuid && st.uid !== process.getuid()))
        return this.refuse(id, 'unsigned', 'the answer file is not a regular file of this user');
      if (st.size > ANSWER_MAX_BYTES) return this.refuse(id, 'unsigned', 'the answer file is too large');
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseAnswer(text);
    if (!parsed.ok) return this.refuse(id, 'unsigned', parsed.error);
    // Another warden's session: not this one's to apply or refuse.
    if (parsed.answer.sessionId !== this.o.sessionId) return undefined;
    return parsed.answer;
  }

  private check(fileId: string, answer: SignedAnswer, request: ApprovalRequest): TakenAnswer | undefined {
    const world = {
      sessionId: this.o.sessionId,
      policyDigest: this.o.policyDigest(),
      nowMs: (this.o.now ?? Date.now)(),
      key: readKey(this.o.home),
    };
    const refusal = answerRefusal(answer, request, world);
    if (refusal) return this.refuse(fileId, refusal.code, refusal.text, answer);
    const by: DecidedBy = { ...answer.by, channel: 'cli', keyId: answer.keyId };
    const verb = { approve: 'approved', reject: 'rejected', skip: 'skipped' }[answer.decision.kind];
    return {
      decision: decisionOf(answer),
      by,
      done: (result) => {
        if (!result.ok) {
          this.refuse(fileId, 'refused', result.error, answer);
          return;
        }
        this.finish(fileId, { ok: true, appliedTo: request.id, text: `${verb} ${request.tool}` });
        this.o.emit({
          type: 'notice',
          level: 'info',
          code: 'answered_elsewhere',
          text: `${request.tool} ${verb} from another terminal by ${identityLine(by)}.`,
        });
      },
    };
  }

  private refuse(id: string, code: string, text: string, answer?: SignedAnswer): undefined {
    this.finish(id, { ok: false, code, text });
    this.o.emit({
      type: 'notice',
      level: 'warn',
      code: 'answered_elsewhere',
      text: `An answer from another terminal${answer ? ` by ${identityLine(answer.by)}` : ''} did not apply (${code}): ${text}. Nothing ran on it.`,
    });
    return undefined;
  }

  /** Writes the result the answering terminal waits for, and removes the answer: it is used up. */
  private finish(id: string, result: Omit<AnswerResult, 'requestId' | 'pid' | 'at'>): void {
    const full: AnswerResult = { requestId: id, ...result, pid: process.pid, at: new Date().toISOString() };
    const path = resultFile(this.o.home, id);
    try {
      writeFileSync(`${path}.tmp`, `${JSON.stringify(full)}\n`, { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    } catch {
      // The answering terminal then says it heard nothing back; the decision (or refusal) stands.
    }
    try {
      unlinkSync(answerFile(this.o.home, id));
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
    for (const request of gate.pending()) {
      const taken = box.take(request);
      if (taken) taken.done(gate.decide(request.id, taken.decision, taken.by));
    }
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
