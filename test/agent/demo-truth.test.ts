import { confirmingHigh } from '../helpers/confirming-person';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, CoreEvent, Decision } from '../../src/protocol';
import type { Session } from '../../src/session/session';
import { demoSessions } from '../helpers/demo-session';

const startDemo = demoSessions();

type Person = (request: ApprovalRequest) => Decision;

/** Plays the whole demo through a real session, with `person` deciding every card. */
async function playDemo(person: Person, onEvent?: (event: CoreEvent, s: Session) => void) {
  const { session, root } = await startDemo();
  const s = session;
  s.attachApprover();
  const cards: ApprovalRequest[] = [];
  const texts = new Map<string, string>();
  s.client.subscribe((event) => {
    onEvent?.(event, s);
    if (event.type === 'agent_finished') texts.set(event.agentId, event.report ?? '');
    if (event.type !== 'approval_requested') return;
    cards.push(event.request);
    // The scripted person confirms a high-risk approve, as the drawer's second y does.
    const decision = confirmingHigh([event.request], event.request.id, person(event.request));
    queueMicrotask(() => s.client.send({ type: 'decide', id: event.request.id, decision }));
  });
  const result = await s.run('show me');
  const { agents, plan } = s.client.snapshot();
  const reportOf = (name: string) => texts.get(agents.find((a) => a.name === name)?.id ?? '') ?? '';
  return { result, root, cards, agents, plan, reportOf };
}

const approvePlan = (r: ApprovalRequest): Decision | undefined =>
  r.preview.kind === 'plan' ? { kind: 'approve_plan', steps: r.preview.steps } : undefined;

describe('the demo tells the truth about what the person decided (issue 33 §1)', () => {
  it('a rejected plan starts no sub-agent, changes no file, and the summary says so', async () => {
    const run = await playDemo(() => ({ kind: 'reject', reason: 'not now' }));
    expect(run.result.status).toBe('done');
    expect(run.cards.map((c) => c.tool)).toEqual(['propose_plan']);
    expect(run.agents.filter((a) => a.name !== 'main')).toEqual([]);
    expect(existsSync(join(run.root, 'src/farewell.js'))).toBe(false);
    expect(run.result.text).toMatch(/did not get the plan approved: you rejected it \("not now"\)/);
    expect(run.result.text).toMatch(/no sub-agent was started/);
    expect(run.result.text).not.toMatch(/Starting two sub-agents|I wrote|ran npm test/);
  });

  it('every card rejected: nothing is claimed as done, the run of a file never written is not even asked', async () => {
    const run = await playDemo(
      (r) => approvePlan(r) ?? (r.preview.kind === 'escalation' ? { kind: 'skip' } : { kind: 'reject' }),
    );
    const text = run.result.text;
    expect(existsSync(join(run.root, 'src/farewell.js'))).toBe(false);
    expect(existsSync(join(run.root, 'test/farewell.test.js'))).toBe(false);
    // The writer's `node -e …` needs src/farewell.js: with the write rejected it is never proposed.
    expect(run.cards.some((c) => c.preview.kind === 'command' && c.preview.command.startsWith('node'))).toBe(
      false,
    );
    expect(text).toMatch(/^\[demo\] Summary \(not everything was done\)/);
    expect(text).toMatch(/writer: not finished\. I did not write src\/farewell\.js: you rejected it\./);
    expect(text).toMatch(
      /I did not run src\/farewell\.js: not attempted, because I did not write src\/farewell\.js/,
    );
    expect(text).toMatch(/tester: not finished\..*I did not run npm test: you rejected it/);
    expect(text).toMatch(/you skipped that step/);
    expect(text).not.toMatch(/I wrote|I ran|\bedited greet/);
    // Only the steps that were done are ticked: the writer's and the tester's stay open.
    expect(run.plan?.steps.map((st) => st.done)).toEqual([true, false, false, true]);
  });

  it('take over on the escalation: the tester says you took over (with your note), not that it went on with your answer', async () => {
    let resumed = false;
    const run = await playDemo(
      (r) =>
        approvePlan(r) ??
        (r.preview.kind === 'escalation' ? { kind: 'escalation', choice: 'take_over' } : { kind: 'approve' }),
      (event, s) => {
        // Resume once the agent is paused by the take-over, with a note, as the person would.
        if (!resumed && event.type === 'tool_finished' && event.tool === 'escalate') {
          resumed = true;
          queueMicrotask(() => s.client.send({ type: 'resume', note: 'no config is needed' }));
        }
      },
    );
    const tester = run.reportOf('tester');
    expect(tester).toMatch(/you took over that step by hand \(your note: "no config is needed"\)/);
    expect(tester).not.toMatch(/went on with your answer|answered retry/);
    expect(run.result.text).toMatch(/^\[demo\] Summary:/);
    expect(existsSync(join(run.root, 'src/farewell.js'))).toBe(true);
  });

  it('everything approved: the summary names what ran, the fence’s block, and the instruction given', async () => {
    const run = await playDemo(
      (r) =>
        approvePlan(r) ??
        (r.preview.kind === 'escalation'
          ? { kind: 'escalation', choice: 'retry', instruction: 'there is no config; go on' }
          : { kind: 'approve' }),
    );
    const text = run.result.text;
    expect(text).toMatch(/^\[demo\] Summary: I got your approval for the plan\./);
    expect(text).toMatch(/writer: done\. I wrote src\/farewell\.js and ran it once with node/);
    expect(text).toMatch(/outside-the-project\.txt outside the project: the path-fence guard blocked it/);
    expect(text).toMatch(/tester: done\. I wrote test\/farewell\.test\.js, ran npm test/);
    expect(text).toMatch(/you answered retry \("there is no config; go on"\)/);
    expect(existsSync(join(run.root, 'test/farewell.test.js'))).toBe(true);
    expect(run.plan?.steps.every((st) => st.done)).toBe(true);
  });
});
