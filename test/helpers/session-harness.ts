import { confirmingHigh } from './confirming-person';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createOpenAIClient } from '../../src/llm/openai-client';
import type { ApprovalRequest, CoreEvent, Decision } from '../../src/protocol';
import { type Session, type SessionOptions, createSession } from '../../src/session/session';
import { type FakeStep, type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from './fake-openai';

export type SessionHarness = {
  session: Session;
  fake: FakeOpenAI;
  root: string;
  home: string;
  events: CoreEvent[];
  /** Resolves with the next approval request (already queued ones first). */
  nextRequest(): Promise<ApprovalRequest>;
  /** Resolves once `count` requests are pending at the same time. */
  pendingCount(count: number): Promise<ApprovalRequest[]>;
  decide(id: string, decision: Decision): void;
  dispose(): Promise<void>;
};

/**
 * A real session (real gate, tools, audit) on a temp project and a temp WARDEN_HOME, talking to
 * the fake OpenAI server through the real `openai` client. With `approver: true` a test decides
 * requests itself; without one every ask fails as `no_approver`, as in a headless run.
 */
export async function startSession(
  script: FakeStep[],
  options: {
    approver?: boolean;
    session?: Partial<SessionOptions>;
    files?: Record<string, string>;
    /** Files of the temp WARDEN_HOME, by relative path. */
    homeFiles?: Record<string, string>;
    /** Where warden was started, relative to the project (its `cwd` option). */
    cwd?: string;
    fake?: FakeOpenAIOptions;
  } = {},
): Promise<SessionHarness> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-proj-')));
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
  for (const [path, content] of Object.entries(options.homeFiles ?? {})) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), content);
  }
  const fake = await startFakeOpenAI(script, options.fake);
  const model = createOpenAIClient({
    baseUrl: fake.url,
    apiKey: 'test',
    model: 'fake-model',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const session = await createSession({
    root,
    home,
    model,
    mode: 'manual',
    approvalTimeoutSec: 60,
    sandbox: 'auto',
    maxStepsPerTurn: 20,
    contextWindowTokens: 100_000,
    ...(options.cwd !== undefined ? { cwd: join(root, options.cwd) } : {}),
    ...options.session,
  });
  const detach = options.approver === false ? () => {} : session.attachApprover();
  const { events, until, nextRequest } = watchSession(session);
  return {
    session,
    fake,
    root,
    home,
    events,
    nextRequest,
    pendingCount: (count) =>
      until(() => {
        const pending = session.client.snapshot().pending;
        return pending.length >= count ? pending : undefined;
      }),
    // The harness's person confirms a high-risk approve, as the drawer's second y does.
    decide: (id, decision) =>
      session.client.send({
        type: 'decide',
        id,
        decision: confirmingHigh(session.client.snapshot().pending, id, decision),
      }),
    async dispose() {
      detach();
      await session.close();
      await fake.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Every event of `session` as it comes, `until` (resolves with the first value `pick` finds, checked
 * again after each event) and `nextRequest` (the next pending request not handed out before).
 */
export function watchSession(session: Session) {
  const events: CoreEvent[] = [];
  const waiters: (() => void)[] = [];
  session.client.subscribe((event) => {
    events.push(event);
    for (const w of waiters.splice(0)) w();
  });
  const until = <T>(pick: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const value = pick();
        if (value !== undefined) resolve(value);
        else waiters.push(check);
      };
      check();
    });
  const seen = new Set<string>();
  const nextRequest = () =>
    until(() => {
      const request = session.client.snapshot().pending.find((r) => !seen.has(r.id));
      if (request) seen.add(request.id);
      return request;
    });
  return { events, until, nextRequest };
}
