import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../src/llm/openai-client';
import type { ApprovalRequest, CoreEvent } from '../../src/protocol';
import { type Session, type SessionOptions, createSession } from '../../src/session/session';
import type { FakeOpenAI } from './fake-openai';
import { watchSession } from './session-harness';

/** A project folder and a WARDEN_HOME shared by the sessions of one test (removed by `dispose`). */
export type Places = { root: string; home: string; dispose(): void };

export function places(): Places {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
  return {
    root,
    home,
    dispose() {
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * A copy of `home` as it is now: what a `kill -9` at this moment leaves on disk. A checkpoint the
 * card started may be writing the shadow repository meanwhile (git's lock and temp files come and
 * go): a copy that met a file vanishing mid-copy is taken again, after letting that work go on.
 */
export async function snapshotHome(home: string): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'warden-home-crashed-'));
  for (let attempt = 0; ; attempt++) {
    try {
      cpSync(home, copy, { recursive: true });
      return copy;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 200) throw err;
      rmSync(copy, { recursive: true, force: true });
      mkdirSync(copy);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

export type Opened = {
  session: Session;
  events: CoreEvent[];
  /** The next request waiting for a person (ones already pending first). */
  nextRequest(): Promise<ApprovalRequest>;
  /** Resolves once an event matches. */
  until(pick: (e: CoreEvent) => boolean): Promise<CoreEvent>;
  close(): Promise<void>;
};

/** A real session (gate, tools, audit, store) on `root`/`home`, talking to `fake`, with an approver attached. */
export async function openSession(
  at: { root: string; home: string },
  fake: FakeOpenAI,
  extra: Partial<SessionOptions> = {},
): Promise<Opened> {
  const model = createOpenAIClient({
    baseUrl: fake.url,
    apiKey: 'test',
    model: 'fake-model',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const session = await createSession({
    root: at.root,
    home: at.home,
    model,
    mode: 'manual',
    approvalTimeoutSec: 600,
    sandbox: 'auto',
    maxStepsPerTurn: 20,
    contextWindowTokens: 100_000,
    ...extra,
  });
  const detach = session.attachApprover();
  const { events, until, nextRequest } = watchSession(session);
  return {
    session,
    events,
    nextRequest,
    until: (pick) => until(() => events.find(pick)),
    async close() {
      detach();
      await session.close();
    },
  };
}
