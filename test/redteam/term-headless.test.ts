/**
 * Red team (terminal): the headless printer (`--headless`, `--json`) and the live output relay.
 * Sequences split across stream chunks and `tool_output` events, invalid UTF-8, lone surrogates,
 * line separators and CRs inside JSON, and model text that tries to forge a `warden:` line.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CoreClient, CoreEvent } from '../../src/protocol';
import { runHeadless } from '../../src/session/headless';
import { OutputRelay } from '../../src/session/output-relay';
import type { Session } from '../../src/session/session';
import { initialCoreState } from '../../src/session/session-state';
import { guardStream, safeChunk } from '../../src/text/safe-output';
import { eventHub } from '../helpers/fake-core';

const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

function fakeSession(events: CoreEvent[], text: string): Session {
  const hub = eventHub();
  const client: CoreClient = {
    subscribe: hub.subscribe,
    changes: hub.changes,
    send: () => {},
    snapshot: () =>
      initialCoreState({
        sessionId: 's',
        root: '/p',
        model: { name: 'm', demo: false },
        mode: 'manual',
        sandboxed: true,
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
      return { status: 'done', text };
    },
  } as unknown as Session;
}

async function headless(events: CoreEvent[], text: string, json: boolean) {
  const out = capture();
  const err = capture();
  const code = await runHeadless(
    fakeSession(events, text),
    'p',
    { json },
    { stdout: out.stream, stderr: err.stream },
  );
  return { code, out: out.text(), err: err.text() };
}

/** Strings a JSON line must carry exactly while showing nothing raw. */
const AWKWARD = [
  'line\u2028sep\u2029para',
  'lone \ud800 high and \udc00 low surrogates',
  'cr\roverwrite',
  'nul\u0000byte',
  '8-bit csi \u009b2J and osc \u009d0;t\u009c',
  'del\u007f',
  `smuggled 😀${String.fromCodePoint(0xe0150, 0xe0151)}`,
];

describe('--json: one valid line per event, controls escaped', () => {
  it('awkward strings in every field round-trip, one line each', async () => {
    const events: CoreEvent[] = AWKWARD.map((text) => ({ type: 'message_delta', agentId: 'main', text }));
    const { out } = await headless(events, AWKWARD.join(' | '), true);
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(events.length + 1);
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toEqual(events);
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ type: 'result', text: AWKWARD.join(' | ') });
  });
});

describe('headless text: a line is warden’s only if warden wrote it', () => {
  it('a tool name or reason carrying a newline does not start a forged `warden:` line', async () => {
    const forged = 'x\nwarden: all changes ran; exit code 0';
    const events: CoreEvent[] = [
      {
        type: 'tool_finished',
        agentId: 'main',
        callId: 'c',
        tool: forged,
        result: { status: 'blocked', reason: `nope\r${forged}` },
      },
    ];
    const { err } = await headless(events, 'done', false);
    const lines = err.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('warden: all changes ran'))).toEqual([]);
    expect(err.replace(/\n/g, '')).not.toMatch(RAW);
  });
});

describe('guarded stream: sequences split across writes', () => {
  it.each([
    ['OSC 52 cut after ESC', ['copy \u001b', ']52;c;cm0=\u0007 done']],
    [
      '8-bit CSI as UTF-8 bytes cut between its two bytes',
      [Buffer.from([0x61, 0xc2]), Buffer.from([0x9b, 0x32, 0x4a])],
    ],
    ['invalid UTF-8 lone continuation bytes', [Buffer.from([0x9b, 0x5b, 0x32, 0x4a, 0xff, 0xfe])]],
    ['a lone CR then text overwriting the line', ['approve\r', 'reject']],
  ])('%s', (_name, writes) => {
    const out = capture();
    const guarded = guardStream(out.stream, 'text');
    for (const w of writes) guarded.write(w as string);
    expect(out.text()).not.toMatch(RAW);
  });

  it('json kind: a non-JSON line written to a JSON stream is still shown, not raw', () => {
    expect(safeChunk('plain \u001b]0;t\u0007 text\n', 'json')).toBe('plain ␛]0;t␇ text\n');
  });
});

describe('tool_output events: a sequence split across events never arrives whole', () => {
  it.each([
    ['OSC 52 across three events', ['a\u001b]', '52;c;cm0=', '\u0007b']],
    ['OSC 8 link split at its ST', ['\u001b]8;;http://evil.test/\u001b', '\\click\u001b]8;;\u001b\\']],
    ['DECSET alt screen split inside its parameters', ['x\u001b[?10', '49hy']],
    ['CSI erase line after a CR, split', ['safe command\r\u001b[', '2Kevil command']],
    ['an unterminated OSC longer than any hold', [`\u001b]0;${'t'.repeat(400)}`, 'rest\u0007']],
  ])('%s', (_name, chunks) => {
    const sent: string[] = [];
    const relay = new OutputRelay((e) => sent.push(e.chunk), { intervalMs: 1_000_000 });
    for (const chunk of chunks) {
      relay.push({ type: 'tool_output', agentId: 'main', callId: 'c', chunk });
      relay.flush();
    }
    relay.close();
    // A lone CR stays for the tail's own line handling; nothing else raw.
    for (const chunk of sent) expect(chunk.replace(/\r/g, '')).not.toMatch(RAW);
    expect(sent.join('')).toMatch(/␛/);
  });
});
