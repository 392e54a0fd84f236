/**
 * The gate with the real audit writer and a burst of parallel calls: the decision and outcome lines
 * of calls made together share writes (issue 16), and still no call starts before its decision line
 * is in the file, and no result goes back before its outcome line is.
 */
import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AuditFs, auditSinkOf, createAuditWriter } from '../../src/audit/writer';
import { defineTool } from '../../src/tools/types';
import { makeTemp } from '../audit/helpers';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { auditDayFiles } from '../helpers/audit-lines';

let h: GateHarness | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  h?.cleanup();
  h = undefined;
  for (const fn of cleanups.splice(0).reverse()) fn();
});

type Line = { phase: string; args?: { id?: string } };

/** The audit lines in `dir` (every day file) for the call with this id. */
function linesOf(dir: string, id: string): Line[] {
  return auditDayFiles(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.args?.id === id);
}

describe('the gate writes the lines of calls made together with shared writes', () => {
  it('40 parallel calls: each runs only after its decision line is in the file, each result only after its outcome line', async () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    let writes = 0;
    const counting: AuditFs = {
      ...fs,
      writeSync: ((fd: number, data: string | Buffer, ...rest: number[]) => {
        writes++;
        return typeof data === 'string' ? fs.writeSync(fd, data) : fs.writeSync(fd, data, ...rest);
      }) as AuditFs['writeSync'],
    };
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's',
      onError: () => {},
      fs: counting,
      probeEveryMs: 0,
    });
    cleanups.push(() => writer.close());
    const sink = auditSinkOf(writer);
    // A read-only tool that looks, as it runs, for its own decision line in the log.
    const probe = defineTool({
      name: 'probe_log',
      description: 'Reports what the audit log holds about this call.',
      schema: z.strictObject({ id: z.string() }),
      kind: 'read',
      async execute(args) {
        const phases = linesOf(t.dir, args.id).map((l) => l.phase);
        return { ok: true, output: phases.join(',') };
      },
    });
    h = createGateHarness({
      audit: sink,
      tools: [probe],
      rules: [{ source: 'user', tool: 'probe_log', decision: 'allow' }],
    });
    const ids = Array.from({ length: 40 }, (_, i) => `call-${i}`);
    const outcomesAtResult = await Promise.all(
      ids.map((id) =>
        (h as GateHarness).call('probe_log', { id }).then((envelope) => ({
          envelope,
          phases: linesOf(t.dir, id).map((l) => l.phase),
        })),
      ),
    );
    for (const { envelope, phases } of outcomesAtResult) {
      // As it ran: its decision line, and no outcome yet.
      expect(envelope).toMatchObject({ status: 'executed', output: 'decision' });
      // As its result came back: both lines.
      expect(phases).toEqual(['decision', 'outcome']);
    }
    // 80 lines; calls made in the same turn share writes.
    expect(writes).toBeLessThan(20);
  });

  it('a log whose lines cannot be put on disk (fdatasync fails) runs nothing more until a sync succeeds', async () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    let diskFails = true;
    const onError = vi.fn();
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's',
      onError,
      probeEveryMs: 0,
      syncAfterMs: 1,
      fs: {
        ...fs,
        fdatasync: ((fd: number, done: (e: NodeJS.ErrnoException | null) => void) =>
          diskFails
            ? done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
            : fs.fdatasync(fd, done)) as AuditFs['fdatasync'],
      },
    });
    cleanups.push(() => writer.close());
    h = createGateHarness({
      audit: auditSinkOf(writer),
      rules: [{ source: 'user', tool: 'write_file', decision: 'allow' }],
    });
    expect(await h.call('write_file', { path: 'a.txt', content: 'one' })).toMatchObject({
      status: 'executed',
    });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(await h.call('write_file', { path: 'b.txt', content: 'two' })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^audit_unavailable: .*could not be put on disk/),
    });
    expect(h.read('b.txt')).toBeUndefined();
    diskFails = false;
    writer.probe();
    await vi.waitFor(async () =>
      expect(await h?.call('write_file', { path: 'c.txt', content: 'three' })).toMatchObject({
        status: 'executed',
      }),
    );
  });
});
