import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/llm/types';
import { restoreSession } from '../../../src/session/saved/resume';
import { loadSession } from '../../../src/session/saved/session-resume';
import { createSessionRecorder } from '../../../src/session/saved/store';
import { openSessionLog } from '../../../src/session/saved/store-file';
import {
  latestSession,
  listSessions,
  sessionFile,
  writeIndexEntry,
} from '../../../src/session/saved/store-index';
import { readSessionFile } from '../../../src/session/saved/store-read';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const home = () => {
  const d = mkdtempSync(join(tmpdir(), 'warden-store-'));
  dirs.push(d);
  return d;
};
/** A recorder for session `sessionId` under `h`; any write error fails the test unless `onError` is given. */
const recorder = (
  h: string,
  sessionId: string,
  onError: (e: Error) => void = (e) => {
    throw e;
  },
) => createSessionRecorder({ home: h, sessionId, root: '/p', model: 'm', mode: () => 'manual', onError });
const meta = (id = 's1', root = '/p') =>
  `${JSON.stringify({ t: 'meta', v: 1, sessionId: id, root, model: 'm', createdAt: '2025-01-01T00:00:00.000Z' })}\n`;
const line = (record: object) => `${JSON.stringify({ ts: '2025-01-01T00:00:01.000Z', ...record })}\n`;

describe('reading a session file', () => {
  it.each([
    ['a torn last line is skipped', `${meta()}${line({ t: 'prompt', text: 'hi' })}{"t":"hist`, 1, true],
    [
      'a last line whole but for its newline counts',
      `${meta()}${line({ t: 'prompt', text: 'hi' })}`.slice(0, -1),
      1,
      false,
    ],
    [
      'a torn line closed by a repair marker is skipped',
      `${meta()}{"t":"pro\n${JSON.stringify({ repair: 'torn_line', ts: 'x', sessionId: 's1', tornBytes: 7, note: 'n' })}\n${line({ t: 'prompt', text: 'again' })}`,
      1,
      false,
    ],
  ])('%s', (_name, text, records, torn) => {
    const h = home();
    const path = join(h, 's.jsonl');
    writeFileSync(path, text);
    const read = readSessionFile(path);
    expect(read.ok && read.file.records.length).toBe(records);
    expect(read.ok && read.file.tornTail).toBe(torn);
  });

  it.each([
    [
      'a damaged line in the middle',
      `${meta()}not json\n${line({ t: 'prompt', text: 'hi' })}`,
      /line 2 is not a session record/,
    ],
    ['a record of an unknown kind', `${meta()}${line({ t: 'mystery' })}`, /line 2/],
    ['no header', line({ t: 'prompt', text: 'hi' }), /does not start with a session header/],
  ])('%s: a clear error, and the file is left as it is', (_name, text, error) => {
    const h = home();
    const path = join(h, 's.jsonl');
    writeFileSync(path, text);
    const read = readSessionFile(path);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toMatch(error);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('loadSession refuses an unknown id, a bad id and another project', () => {
    const h = home();
    mkdirSync(join(h, 'sessions'));
    writeFileSync(sessionFile(h, 's1'), meta('s1', '/p'));
    expect(() => loadSession(h, 'nope', '/p')).toThrow(/no saved session nope/);
    expect(() => loadSession(h, '../etc', '/p')).toThrow(/not a session id/);
    expect(() => loadSession(h, 's1', '/other')).toThrow(/belongs to the project at \/p/);
  });
});

describe('writing a session file', () => {
  it('a boundary record is on disk at once; others within a tick; a torn tail is repaired first', async () => {
    const h = home();
    const path = join(h, 'sessions', 's.jsonl');
    const first = openSessionLog({ path, sessionId: 's', onError: () => {} });
    first.append({ t: 'event', ts: 't', event: { type: 'notice', level: 'info', text: 'queued' } });
    expect(existsSync(path) && readFileSync(path, 'utf8')).toBe('');
    first.append({ t: 'prompt', ts: 't', text: 'boundary' });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
    await first.close();
    appendFileSync(path, '{"t":"prom');
    const second = openSessionLog({ path, sessionId: 's', onError: () => {} });
    second.append({ t: 'prompt', ts: 't', text: 'after the crash' });
    await second.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.at(-2)).toContain('"repair":"torn_line"');
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ text: 'after the crash' });
  });

  it('secrets are redacted like the audit, and nothing is written before the first prompt', async () => {
    const h = home();
    const rec = recorder(h, 'abc');
    rec.onEvent({ type: 'notice', level: 'info', text: 'before' });
    expect(existsSync(sessionFile(h, 'abc'))).toBe(false);
    expect(listSessions(h)).toEqual([]);
    rec.journal.prompt('use the key AKIAZ7Q4R2M8N6P3L5K1 please');
    rec.journal.sync([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'api_key=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' },
    ]);
    await rec.close();
    const text = readFileSync(sessionFile(h, 'abc'), 'utf8');
    expect(text).not.toContain('AKIAZ7Q4R2M8N6P3L5K1');
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[REDACTED');
    expect(text).toContain('"before"');
    expect(text).not.toContain('"sys"');
    expect(listSessions(h, '/p')).toMatchObject([{ id: 'abc', turns: 1, model: 'm' }]);
  });

  it('after freeze nothing more is recorded (shutdown must not resolve what a resume offers again)', async () => {
    const h = home();
    const rec = recorder(h, 'f', () => {});
    rec.journal.prompt('go');
    rec.freeze();
    rec.onEvent({ type: 'approval_resolved', requestId: 'r', outcome: 'error', approver: 'none' });
    await rec.close();
    expect(readFileSync(sessionFile(h, 'f'), 'utf8')).not.toContain('approval_resolved');
  });
});

describe('a batch of calls side by side', () => {
  const started = (callId: string, batch?: { id: string; size: number }) =>
    ({
      type: 'tool_started',
      agentId: 'main',
      callId,
      tool: 'read_file',
      args: { path: 'a.txt' },
      ...(batch ? { batch } : {}),
    }) as const;
  const finished = (callId: string) =>
    ({
      type: 'tool_finished',
      agentId: 'main',
      callId,
      tool: 'read_file',
      result: { status: 'executed', output: 'a' },
    }) as const;

  it("writes a batch's finished calls together on the next tick, a lone call's result at once", async () => {
    const h = home();
    const rec = recorder(h, 'b');
    rec.journal.prompt('go');
    const file = () => readFileSync(sessionFile(h, 'b'), 'utf8');
    const batch = { id: 'batch-1', size: 3 };
    for (const id of ['c1', 'c2', 'c3']) rec.onEvent(started(id, batch));
    for (const id of ['c1', 'c2', 'c3']) rec.onEvent(finished(id));
    expect(file()).not.toContain('tool_finished');
    await new Promise((resolve) => setImmediate(resolve));
    expect(file().match(/"tool_finished"/g)).toHaveLength(3);
    rec.onEvent(started('alone'));
    rec.onEvent(finished('alone'));
    expect(file().match(/"tool_finished"/g)).toHaveLength(4);
    await rec.close();
  });
});

describe('a result is written once', () => {
  const result = (output: string) => ({ status: 'executed' as const, output });
  const finishedWith = (callId: string, output: string, agentId = 'main') =>
    ({ type: 'tool_finished', agentId, callId, tool: 'read_file', result: result(output) }) as const;
  const ask = (...ids: string[]): ChatMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'read_file', arguments: '{}' } })),
  });
  const toolMessage = (id: string, content: string): ChatMessage => ({
    role: 'tool',
    tool_call_id: id,
    content,
  });
  const recordsOf = (h: string, id: string) => {
    const read = readSessionFile(sessionFile(h, id));
    if (!read.ok) throw new Error(read.error);
    return read.file.records;
  };
  const restoredFrom = (h: string, id: string) => restoreSession(recordsOf(h, id));

  it('a tool message that is its result’s JSON refers to the event; a resume puts the same text back', async () => {
    const h = home();
    const rec = recorder(h, 'r');
    rec.journal.prompt('read');
    const big = 'line of the file\n'.repeat(200);
    rec.onEvent(finishedWith('c1', big));
    rec.onEvent(finishedWith('c2', 'other'));
    const history: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read' },
      ask('c1', 'c2'),
      toolMessage('c1', JSON.stringify(result(big))),
      // Not its result's JSON (shortened for the history): written out.
      toolMessage('c2', '{"status":"executed","output":"oth…"}'),
    ];
    rec.journal.sync(history);
    await rec.close();
    const file = readFileSync(sessionFile(h, 'r'), 'utf8');
    expect(file.split('line of the file').length - 1).toBe(200);
    expect(file).toContain('"fromEvent":true');
    expect(file).toContain('oth…');
    expect(restoredFrom(h, 'r').history).toEqual(history.slice(1));
  });

  it('the result a reference restores is the redacted one; a stale or missing event is never used', async () => {
    const h = home();
    const rec = recorder(h, 's');
    rec.journal.prompt('read');
    const secret = 'name: app\npassword: hunter2xyz\n';
    rec.onEvent(finishedWith('c1', secret));
    rec.journal.sync([
      { role: 'user', content: 'read' },
      ask('c1'),
      toolMessage('c1', JSON.stringify(result(secret))),
    ]);
    // A call id the model used again, after /clear: the old event must not stand for the new result.
    rec.cleared();
    rec.onEvent(finishedWith('c1', 'before clear? no: after'));
    rec.journal.sync([
      { role: 'user', content: 'again' },
      ask('c1'),
      toolMessage('c1', JSON.stringify(result('new'))),
    ]);
    await rec.close();
    const file = readFileSync(sessionFile(h, 's'), 'utf8');
    expect(file).not.toContain('hunter2xyz');
    const restored = restoredFrom(h, 's');
    expect(restored.history.at(-1)).toEqual(toolMessage('c1', JSON.stringify(result('new'))));
    // Before the /clear the history held the redacted result (the restore forgets it with the clear).
    const beforeClear = restoreSession(
      recordsOf(h, 's').filter((_, i, all) => i < all.findIndex((r) => r.t === 'clear')),
    );
    expect(JSON.parse((beforeClear.history.at(-1) as { content: string }).content).output).toBe(
      'name: app\npassword: [REDACTED:key]\n',
    );
    const missing = restoreSession([
      { t: 'history', ts: 't', messages: [{ role: 'tool', tool_call_id: 'gone', fromEvent: true }] },
    ]);
    expect(JSON.parse((missing.history[0] as { content: string }).content)).toMatchObject({
      status: 'error',
    });
  });
});

describe('the index', () => {
  it('lists a project’s sessions newest first, skips damaged entries, and finds the latest', () => {
    const h = home();
    const base = { root: '/p', model: 'm', createdAt: '2025-01-01T00:00:00.000Z', turns: 1 };
    writeIndexEntry(h, { ...base, id: 'old', title: 'old one', updatedAt: '2025-01-01T00:00:00.000Z' });
    writeIndexEntry(h, { ...base, id: 'new', title: 'new one', updatedAt: '2025-01-03T00:00:00.000Z' });
    writeIndexEntry(h, {
      ...base,
      id: 'other',
      root: '/q',
      title: 'q',
      updatedAt: '2025-01-04T00:00:00.000Z',
    });
    writeFileSync(join(h, 'sessions', 'index', 'broken.json'), '{');
    expect(listSessions(h, '/p').map((s) => s.id)).toEqual(['new', 'old']);
    expect(latestSession(h, '/p')?.id).toBe('new');
    expect(latestSession(h, '/none')).toBeUndefined();
  });
});

describe('restoring', () => {
  it('history minus dropped messages; /clear forgets; an asked step without its messages is unfinished', () => {
    const ts = 't';
    const restored = restoreSession([
      { t: 'prompt', ts, text: 'one' },
      {
        t: 'history',
        ts,
        messages: [
          { role: 'user', content: 'one' },
          { role: 'assistant', content: 'a' },
        ],
      },
      { t: 'clear', ts },
      { t: 'prompt', ts, text: 'too big' },
      { t: 'history', ts, messages: [{ role: 'user', content: 'too big' }] },
      { t: 'dropped', ts, count: 1 },
      { t: 'prompt', ts, text: 'two' },
      { t: 'history', ts, messages: [{ role: 'user', content: 'two' }] },
      {
        t: 'asked',
        ts,
        content: null,
        calls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: '{}' } }],
      },
      { t: 'mode', ts, mode: 'plan' },
    ]);
    expect(restored.history).toEqual([{ role: 'user', content: 'two' }]);
    expect(restored.turns).toBe(3);
    expect(restored.mode).toBe('plan');
    expect(restored.interrupted?.calls.map((c) => c.id)).toEqual(['c1']);
    expect(restored.replay.filter((r) => r.kind === 'clear')).toHaveLength(1);
  });
});
