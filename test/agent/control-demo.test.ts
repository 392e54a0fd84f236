import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/protocol';
import { demoSessions } from '../helpers/demo-session';

const startDemo = demoSessions();

describe('the scripted demo shows an existing file’s diff and an escalation (issue 14, done when)', () => {
  it('plays through: edit_file on src/greet.js is a side-by-side diff of an existing file; three failed reads escalate', async () => {
    const { session, root } = await startDemo();
    const s = session;
    s.attachApprover();
    const seen: ApprovalRequest[] = [];
    // A person who approves everything, and answers the escalation with an instruction.
    s.client.subscribe((event) => {
      if (event.type !== 'approval_requested') return;
      const r = event.request;
      seen.push(r);
      const decision =
        r.preview.kind === 'escalation'
          ? {
              kind: 'escalation' as const,
              choice: 'retry' as const,
              instruction: 'there is no config; go on',
            }
          : r.preview.kind === 'plan'
            ? { kind: 'approve_plan' as const, steps: r.preview.steps }
            : { kind: 'approve' as const, confirmHigh: true as const };
      queueMicrotask(() => s.client.send({ type: 'decide', id: r.id, decision }));
    });
    const result = await s.run('show me');
    expect(result.status).toBe('done');
    const edit = seen.find((r) => r.preview.kind === 'diff' && r.preview.path === 'src/greet.js');
    expect(edit?.preview).toMatchObject({ kind: 'diff', isNew: false });
    const diff = edit?.preview as { before: string; after: string };
    expect(diff.before).toContain('/** Greets someone by name. */');
    expect(diff.after).toContain('returns "Hello, Ada!"');
    expect(readFileSync(join(root, 'src/greet.js'), 'utf8')).toContain('returns "Hello, Ada!"');
    const escalation = seen.find((r) => r.preview.kind === 'escalation');
    expect(escalation).toMatchObject({ agentName: 'tester', preview: { trigger: 'failures' } });
    expect((escalation?.preview as { tried: unknown[] }).tried.length).toBeGreaterThanOrEqual(3);
    const tester = s.client.snapshot().agents.find((a) => a.name === 'tester');
    expect(tester?.status).toBe('done');
  });
});
