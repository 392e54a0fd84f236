import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runHeadless } from '../../src/session/headless';
import type { CoreClient, CoreEvent } from '../../src/protocol';
import type { Session } from '../../src/session/session';
import { initialCoreState } from '../../src/session/session-state';
import { escapeJsonText, guardStream, safeJsonLine } from '../../src/text/safe-output';
import { SEQUENCE_CASES } from './sequences';
import { eventHub } from '../helpers/fake-core';

/** Raw terminal controls: none may reach headless stdout or stderr. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const EVIL = `A\u001b]52;c;UFdORUQ=\u0007B\u001b]0;TITLE\u001b\\C\u001b[2JD\u009b6nE\u202eF\u2066G`;

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

/** A session stand-in: emits `events` when run, then ends the turn with `text`. */
function fakeSession(events: CoreEvent[], result: { status: 'done' | 'failed'; text: string }): Session {
  const hub = eventHub();
  const client: CoreClient = {
    subscribe: hub.subscribe,
    changes: hub.changes,
    send: () => {},
    snapshot: () => ({
      ...initialCoreState({
        sessionId: 's',
        root: '/p',
        model: { name: 'm', demo: false },
        mode: 'manual',
        sandboxed: true,
      }),
      mcp: [{ name: `srv${EVIL}`, status: 'failed', tools: 0, error: `crash ${EVIL}` }],
    }),
  };
  return {
    client,
    mcpStarted: Promise.resolve(),
    changes: () => false,
    resumeTurn: async () => undefined,
    hooksSettled: async () => {},
    run: async () => {
      for (const e of events) hub.emit(e);
      return result;
    },
  } as unknown as Session;
}

const EVENTS: CoreEvent[] = [
  { type: 'message_delta', agentId: 'main', text: EVIL },
  {
    type: 'tool_finished',
    agentId: 'main',
    callId: 'c',
    tool: `grep${EVIL}`,
    result: { status: 'blocked', reason: `reason ${EVIL}`, output: EVIL },
  },
  { type: 'error', message: `error ${EVIL}` },
  { type: 'notice', level: 'warn', text: EVIL },
];

describe('headless output', () => {
  it('text mode: the answer, tool failures and errors print with every sequence visible', async () => {
    const out = capture();
    const err = capture();
    const code = await runHeadless(
      fakeSession(EVENTS, { status: 'done', text: `answer ${EVIL}` }),
      'p',
      { json: false },
      { stdout: out.stream, stderr: err.stream },
    );
    expect(code).toBe(0);
    expect(out.text()).toContain('answer A␛]52;c;UFdORUQ=␇B␛]0;TITLE␛\\C␛[2JD⟨U+009B⟩6nE⟨U+202E⟩F⟨U+2066⟩G');
    expect(err.text()).toContain('reason A␛]52');
    expect(err.text()).toContain('error A␛]52');
    expect(err.text()).toContain('crash A␛]52');
    expect(out.text()).not.toMatch(RAW);
    expect(err.text().replace(/\n/g, '')).not.toMatch(RAW);
  });

  it('a failed turn prints its text on stderr, visible', async () => {
    const out = capture();
    const err = capture();
    const code = await runHeadless(
      fakeSession([], { status: 'failed', text: EVIL }),
      'p',
      { json: false },
      { stdout: out.stream, stderr: err.stream },
    );
    expect(code).toBe(1);
    expect(err.text()).toContain('A␛]52');
    expect(err.text().replace(/\n/g, '')).not.toMatch(RAW);
  });

  it('json mode: every line parses to the exact original data and shows no raw control', async () => {
    const out = capture();
    const err = capture();
    await runHeadless(
      fakeSession(EVENTS, { status: 'done', text: EVIL }),
      'p',
      { json: true },
      { stdout: out.stream, stderr: err.stream },
    );
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(EVENTS.length + 1);
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(lines.slice(0, EVENTS.length).map((l) => JSON.parse(l))).toEqual(EVENTS);
    expect(JSON.parse(lines[EVENTS.length] ?? '')).toMatchObject({
      type: 'result',
      status: 'done',
      text: EVIL,
    });
  });
});

describe('escapeJsonText / safeJsonLine', () => {
  it.each(SEQUENCE_CASES)('$name round-trips and prints nothing raw', ({ input }) => {
    const line = safeJsonLine({ text: input, [input]: 1 });
    expect(line.slice(0, -1)).not.toMatch(RAW);
    expect(JSON.parse(line)).toEqual({ text: input, [input]: 1 });
  });

  it('escapes astral tag characters as surrogate pairs', () => {
    expect(escapeJsonText(JSON.stringify('a\u{e0041}'))).toBe('"a\\udb40\\udc41"');
  });
});

describe('guardStream', () => {
  it('sanitises strings and bytes written, and keeps the stream’s other members', () => {
    const out = capture();
    const guarded = guardStream(out.stream, 'text');
    guarded.write(`x${EVIL}\n`);
    guarded.write(Buffer.from(`y${EVIL}\n`));
    expect(guarded.writable).toBe(true);
    expect(out.text()).toContain('xA␛]52');
    expect(out.text()).toContain('yA␛]52');
    expect(out.text().replace(/\n/g, '')).not.toMatch(RAW);
  });
});
