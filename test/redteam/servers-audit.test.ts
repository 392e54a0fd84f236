/**
 * Red team: the audit log fails under the real writer (an injected file system says EIO, EROFS,
 * EACCES, ENOSPC, or writes half a line), wired to the gate the way the session wires it. No audit
 * line, no execution: the stub tools' side effects prove nothing ran, and the model gets a reason.
 */
import * as fs from 'node:fs';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AuditFs, auditSinkOf, createAuditWriter } from '../../src/audit/writer';
import type { AuditSink } from '../../src/gate/gate';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { makeTemp } from '../audit/helpers';

const cleanups: (() => void)[] = [];
let h: GateHarness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
  for (const fn of cleanups.splice(0).reverse()) fn();
});

const errno = (code: string) => Object.assign(new Error(`${code}: injected, write`), { code });

/** `atOpen`: the fault is in opening the log, so it bites a fresh session (an open file stays writable). */
type Fault = { name: string; code: string; atOpen?: boolean; fs: (fail: () => boolean) => Partial<AuditFs> };
const FAULTS: Fault[] = [
  {
    name: 'EIO on every write',
    code: 'EIO',
    fs: (fail) => ({
      writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
        if (fail()) throw errno('EIO');
        return (fs.writeSync as (...a: unknown[]) => number)(...args);
      }) as AuditFs['writeSync'],
    }),
  },
  {
    name: 'a read-only WARDEN_HOME (EROFS on open)',
    code: 'EROFS',
    atOpen: true,
    fs: (fail) => ({
      openSync: ((...args: Parameters<typeof fs.openSync>) => {
        if (fail()) throw errno('EROFS');
        return fs.openSync(...args);
      }) as AuditFs['openSync'],
      mkdirSync: ((...args: Parameters<typeof fs.mkdirSync>) => {
        if (fail()) throw errno('EROFS');
        return fs.mkdirSync(...args);
      }) as AuditFs['mkdirSync'],
    }),
  },
  {
    name: 'a folder nobody may write (EACCES on open)',
    code: 'EACCES',
    atOpen: true,
    fs: (fail) => ({
      openSync: ((...args: Parameters<typeof fs.openSync>) => {
        if (fail()) throw errno('EACCES');
        return fs.openSync(...args);
      }) as AuditFs['openSync'],
    }),
  },
  {
    name: 'half a line written, then ENOSPC',
    code: 'ENOSPC',
    fs: (fail) => {
      let cut = true;
      return {
        writeSync: ((fd: number, data: string | Buffer, ...rest: number[]) => {
          if (!fail()) return (fs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
          const bytes = typeof data === 'string' ? Buffer.from(data) : data.subarray(rest[0] ?? 0);
          if (cut) {
            cut = false;
            return fs.writeSync(fd, bytes, 0, Math.floor(bytes.length / 2));
          }
          throw errno('ENOSPC');
        }) as AuditFs['writeSync'],
      };
    },
  },
];

/** The real writer behind the sink the session builds (session.ts: a failed write is `{ok:false}`). */
function realSink(fault: Fault, fail: () => boolean): { sink: AuditSink; dir: string; onError: () => void } {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  const onError = vi.fn();
  const writer = createAuditWriter({
    dir: t.dir,
    sessionId: 'redteam',
    onError,
    fs: { ...fs, ...fault.fs(fail) } as AuditFs,
    probeEveryMs: 0,
  });
  cleanups.push(() => writer.close());
  const sink: AuditSink = auditSinkOf(writer);
  return { sink, dir: t.dir, onError };
}

/** Every record (not repair markers) in the writer's folder. */
function recordsIn(dir: string): { tool?: string; phase?: string; outcome?: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(`${dir}/${f}`, 'utf8').split('\n'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    })
    .filter((r) => r.repair === undefined);
}

describe('the real audit writer fails: nothing runs, the model is told why', () => {
  it.each(FAULTS.map((f) => [f.name, f] as const))('%s', async (_name, fault) => {
    let broken = false;
    const { sink, dir, onError } = realSink(fault, () => broken);
    h = createGateHarness({ mode: 'auto-edit', audit: sink });
    h.write('r.txt', 'r');
    // A write fault hits a log already open (a working call first); an open fault, a fresh session.
    if (!fault.atOpen) expect((await h.call('read_file', { path: 'r.txt' })).status).toBe('executed');
    const ranBefore = h.ran().length;
    broken = true;

    for (const [tool, args] of [
      ['write_file', { path: 'a.txt', content: 'x' }],
      ['read_file', { path: 'r.txt' }],
    ] as const) {
      const envelope = await h.call(tool, args);
      expect(envelope, tool).toMatchObject({
        status: 'error',
        by: 'gate',
        retry: false,
        reason: expect.stringMatching(new RegExp(`^audit_unavailable: .*${fault.code}`)),
      });
    }
    expect(h.read('a.txt')).toBeUndefined();
    expect(h.ran()).toHaveLength(ranBefore);
    expect(onError).toHaveBeenCalledTimes(1);
    // No line in the log says the refused calls ran.
    expect(
      recordsIn(dir)
        .filter((r) => r.outcome === 'executed')
        .map((r) => r.tool),
    ).toEqual(fault.atOpen ? [] : ['read_file']);
  });

  it('an approval request is never shown when its requested line cannot be written (EIO)', async () => {
    let broken = false;
    const { sink } = realSink(FAULTS[0] as Fault, () => broken);
    h = createGateHarness({ audit: sink });
    broken = true;
    const envelope = await h.call('write_file', { path: 'a.txt', content: 'x' });
    expect(envelope).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^audit_unavailable: .*EIO/),
    });
    expect(h.broker.pending()).toEqual([]);
    expect(h.read('a.txt')).toBeUndefined();
  });
});
