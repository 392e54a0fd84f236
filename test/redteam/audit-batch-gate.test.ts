import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AuditAppend, type AuditFs, createAuditWriter } from '../../src/audit/writer';
import type { AuditSink } from '../../src/gate/gate';
import type { AuditWrite, AuditRecord } from '../../src/protocol/audit';
import type { ToolResultEnvelope } from '../../src/protocol';
import { defineTool } from '../../src/tools/types';
import { makeTemp } from '../audit/helpers';
import { fillableFs } from '../audit/fillable-fs';
import { NO_MOUNT, canMount, mountTmpfs, unmount } from '../audit/mounts';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { auditDayFiles } from '../helpers/audit-lines';

let h: GateHarness | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  h?.cleanup();
  h = undefined;
  for (const fn of cleanups.splice(0).reverse()) fn();
});

type Line = AuditRecord & { repair?: string };

/** Every whole line of every day file in `dir`, in file order (a torn line is skipped, as a reader does). */
function linesIn(dir: string): Line[] {
  if (!existsSync(dir)) return [];
  return auditDayFiles(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .flatMap((line) => {
      try {
        return line ? [JSON.parse(line) as Line] : [];
      } catch {
        return [];
      }
    });
}
const phasesOf = (dir: string, path: string) =>
  linesIn(dir)
    .filter((l) => (l.args as { path?: string } | undefined)?.path === path)
    .map((l) => (l.phase === 'outcome' ? `outcome:${l.outcome}` : l.phase));

/** The real writer in `dir` as the gate's sink; `onWritten` sees each line's answer before the gate does. */
function realSink(
  dir: string,
  o: { fs?: AuditFs; onWritten?: (r: AuditRecord, w: AuditAppend) => void } = {},
) {
  const writer = createAuditWriter({
    dir,
    sessionId: 's',
    onError: () => {},
    probeEveryMs: 0,
    syncAfterMs: 0,
    ...(o.fs ? { fs: o.fs } : {}),
  });
  cleanups.push(() => writer.close());
  const answer = (r: AuditRecord, w: AuditAppend): AuditWrite => {
    o.onWritten?.(r, w);
    return w.ok ? { ok: true } : { ok: false, error: w.error.message };
  };
  const sink: AuditSink = {
    append: (r) => answer(r, writer.append(r)),
    appendSoon: (r) => writer.appendSoon(r).then((w) => answer(r, w)),
  };
  return { writer, sink };
}

/** A write the auto-edit mode allows that notes, in the file it writes, the audit lines of its own call as it runs. */
function writeProbe(auditDir: string) {
  return defineTool({
    name: 'write_probe',
    description: 'Writes a file of the project holding what the audit log says of this call.',
    schema: z.strictObject({ path: z.string() }),
    kind: 'write',
    guarded: { paths: ['path'] },
    autoEditable: true,
    changesFiles: true,
    async execute(args, ctx) {
      const verdict = ctx.fence.check(args.path);
      if (!verdict.ok) throw new Error(verdict.reason);
      const seen = phasesOf(auditDir, args.path).join(',');
      mkdirSync(dirname(verdict.path), { recursive: true });
      writeFileSync(verdict.path, seen);
      return { ok: true, output: seen };
    },
  });
}

describe('a burst of parallel calls from several agents, refusals mixed in', () => {
  it('64 writes side by side, 16 refused by the fence, from three agents: each ran after its decision line, answered after its outcome line', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    const { sink } = realSink(audit.dir);
    h = createGateHarness({ mode: 'auto-edit', audit: sink, tools: [writeProbe(audit.dir)] });
    const harness = h;
    const agents = ['main', 'sub-1', 'sub-2'];
    const calls: Promise<{ path: string; envelope: ToolResultEnvelope; phases: string[] }>[] = [];
    for (let i = 0; i < 80; i++) {
      const agentId = agents[i % 3] as string;
      // Every fifth call asks for a path outside the project: refused with a sync append, in the same turn.
      const path = i % 5 === 4 ? `../outside-${i}.txt` : `out/f${i}.txt`;
      calls.push(
        harness
          .call('write_probe', { path }, { agentId, agentName: agentId, taskId: `task-${agentId}` })
          .then((envelope) => ({ path, envelope, phases: phasesOf(audit.dir, path) })),
      );
    }
    const results = await Promise.all(calls);
    for (const { path, envelope, phases } of results) {
      if (path.startsWith('..')) {
        expect(envelope).toMatchObject({ status: 'blocked' });
        expect(phases).toEqual(['decision', 'outcome:blocked']);
        expect(existsSync(join(harness.root, path))).toBe(false);
      } else {
        // As it ran, the file held its decision line and nothing more.
        expect(envelope).toMatchObject({ status: 'executed', output: 'decision' });
        expect(harness.read(path)).toBe('decision');
        expect(phases).toEqual(['decision', 'outcome:executed']);
      }
    }
    expect(readdirSync(join(harness.root, 'out'))).toHaveLength(64);
    // Lines from the three agents keep their own agent and task.
    const lines = linesIn(audit.dir);
    expect(lines).toHaveLength(160);
    for (const agent of agents)
      expect(lines.filter((l) => l.agentId === agent).every((l) => l.taskId === `task-${agent}`)).toBe(true);
  });
});

describe('a disk that fills in the middle of a shared write', () => {
  it('a torn batch of decision lines: none of its calls runs, each is told audit_unavailable', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    const { disk, fs: faulty } = fillableFs();
    const { sink } = realSink(audit.dir, { fs: faulty });
    h = createGateHarness({ mode: 'auto-edit', audit: sink });
    const harness = h;
    // The log works (the file exists); then three lines and a bit of the burst's decision lines get out.
    expect((await harness.call('write_file', { path: 'first.txt', content: 'x' })).status).toBe('executed');
    disk.full = true;
    disk.cut = 1500;
    const paths = Array.from({ length: 12 }, (_, i) => `burst-${i}.txt`);
    const envelopes = await Promise.all(
      paths.map((path) => harness.call('write_file', { path, content: 'y' })),
    );
    for (const envelope of envelopes)
      expect(envelope).toMatchObject({
        status: 'error',
        reason: expect.stringMatching(/^audit_unavailable: /),
      });
    for (const path of paths) expect(harness.read(path)).toBeUndefined();
    expect(harness.ranTools()).toEqual(['write_file']);
    // Back on a disk with room: what the file says of the burst is no execution at all.
    disk.full = false;
    expect((await harness.call('write_file', { path: 'last.txt', content: 'z' })).status).toBe('executed');
    const lines = linesIn(audit.dir);
    expect(
      lines.filter((l) => l.outcome === 'executed').map((l) => (l.args as { path: string }).path),
    ).toEqual(['first.txt', 'last.txt']);
    expect(lines.some((l) => l.repair === 'torn_line')).toBe(true);
  });

  it('a torn batch of outcome lines: the calls had run (their decision lines are in the file), and the model is told they ran', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    const { disk, fs: faulty } = fillableFs();
    let fillAtOutcome = true;
    const { sink } = realSink(audit.dir, { fs: faulty });
    // The disk fills as the first outcome line is made: after every decision line went out.
    const filling: AuditSink = {
      append: sink.append,
      appendSoon: (r) => {
        if (r.phase === 'outcome' && fillAtOutcome) {
          fillAtOutcome = false;
          disk.full = true;
          disk.cut = 700;
        }
        return sink.appendSoon(r);
      },
    };
    h = createGateHarness({ mode: 'auto-edit', audit: filling });
    const harness = h;
    const paths = Array.from({ length: 8 }, (_, i) => `ran-${i}.txt`);
    const envelopes = await Promise.all(
      paths.map((path) => harness.call('write_file', { path, content: 'y' })),
    );
    expect(envelopes.every((e) => e.status === 'executed')).toBe(true);
    disk.full = false;
    for (const path of paths) {
      expect(harness.read(path)).toBe('y');
      expect(phasesOf(audit.dir, path)[0]).toBe('decision');
    }
  });
});

describe('a task cancelled between its decision line and the execution', () => {
  it('Esc lands as the decision lines are written: nothing runs, each outcome says cancelled, the other agent goes on', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    const esc = new AbortController();
    const { sink } = realSink(audit.dir, {
      onWritten: (r, w) => {
        // The main task's first decision line is in the file: the person presses Esc now.
        if (w.ok && r.phase === 'decision' && r.agentId === 'main') esc.abort('Esc');
      },
    });
    h = createGateHarness({ mode: 'auto-edit', audit: sink });
    const harness = h;
    const main = Array.from({ length: 10 }, (_, i) =>
      harness.call('write_file', { path: `main-${i}.txt`, content: 'm' }, { signal: esc.signal }),
    );
    const sub = Array.from({ length: 10 }, (_, i) =>
      harness.call(
        'write_file',
        { path: `sub-${i}.txt`, content: 's' },
        { agentId: 'sub-1', agentName: 'sub-1', taskId: 'task-sub' },
      ),
    );
    const [mainEnvelopes, subEnvelopes] = await Promise.all([Promise.all(main), Promise.all(sub)]);
    for (const [i, envelope] of mainEnvelopes.entries()) {
      expect(envelope).toMatchObject({
        status: 'cancelled',
        reason: expect.stringMatching(/task_cancelled/),
      });
      expect(harness.read(`main-${i}.txt`)).toBeUndefined();
      expect(phasesOf(audit.dir, `main-${i}.txt`)).toEqual(['decision', 'outcome:cancelled']);
    }
    for (const [i, envelope] of subEnvelopes.entries()) {
      expect(envelope.status).toBe('executed');
      expect(phasesOf(audit.dir, `sub-${i}.txt`)).toEqual(['decision', 'outcome:executed']);
    }
  });

  it('Esc while the checkpoint is taken (after the decision line): nothing runs', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    const esc = new AbortController();
    const { sink } = realSink(audit.dir);
    h = createGateHarness({ mode: 'auto-edit', audit: sink, tools: [writeProbe(audit.dir)] });
    const harness = h;
    let checkpoints = 0;
    const envelope = await harness.call(
      'write_probe',
      { path: 'a.txt' },
      {
        signal: esc.signal,
        checkpoint: async () => {
          checkpoints++;
          // The decision line is in the file by now; the person cancels before anything runs.
          expect(phasesOf(audit.dir, 'a.txt')).toEqual(['decision']);
          esc.abort('Esc');
        },
      },
    );
    expect(checkpoints).toBe(1);
    expect(envelope.status).toBe('cancelled');
    expect(harness.read('a.txt')).toBeUndefined();
    expect(phasesOf(audit.dir, 'a.txt')).toEqual(['decision', 'outcome:cancelled']);
  });
});

describe('a real disk that fills during bursts (tmpfs)', () => {
  it.skipIf(!canMount)(
    'bursts of 64 writes until the audit disk is full: every file written has its decision line, whole',
    async () => {
      const mount = makeTemp();
      cleanups.push(mount.cleanup);
      mountTmpfs(mount.dir, 256);
      cleanups.push(() => unmount(mount.dir));
      const dir = join(mount.dir, 'audit');
      const { sink } = realSink(dir);
      h = createGateHarness({ mode: 'auto-edit', audit: sink });
      const harness = h;
      const content = 'x'.repeat(3000);
      const executed: string[] = [];
      let refused = 0;
      for (let burst = 0; burst < 40 && refused === 0; burst++) {
        const paths = Array.from({ length: 64 }, (_, i) => `b${burst}/f${i}.txt`);
        const envelopes = await Promise.all(
          paths.map((path) => harness.call('write_file', { path, content })),
        );
        for (const [i, envelope] of envelopes.entries()) {
          if (envelope.status === 'executed') executed.push(paths[i] as string);
          else {
            expect(envelope).toMatchObject({
              status: 'error',
              reason: expect.stringMatching(/audit_unavailable/),
            });
            refused++;
          }
        }
      }
      expect(refused).toBeGreaterThan(0);
      expect(executed.length).toBeGreaterThan(0);
      const decided = new Set(
        linesIn(dir)
          .filter((l) => l.phase === 'decision')
          .map((l) => (l.args as { path: string }).path),
      );
      const written = harness.ranTools().length;
      expect(written).toBe(executed.length);
      for (const path of executed) {
        expect(harness.read(path)).toBe(content);
        expect(decided.has(path)).toBe(true);
      }
    },
  );
  it.skipIf(canMount)(NO_MOUNT, () => {});
});
