import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planCovers, planSteps } from '../../src/gate/plan-scope';
import type { CallFacts } from '../../src/policy/facts';
import type { FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines } from '../helpers/audit-lines';

// Issue 14 §6: approving a plan may grant "the plan's known steps", until the plan is done.

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const NPM = { 'package.json': '{"scripts":{"test":"true","lint":"true"}}\n' };
const call = (name: string, args: Record<string, unknown>): FakeStep => ({ toolCalls: [{ name, args }] });
const PLAN = {
  title: 'Fix the app',
  steps: ['Change `src/app.ts` to export main', 'Run `npm test` and fix what fails'],
};
const decisionOf = (home: string, match: (r: Record<string, unknown>) => boolean) =>
  auditLines(home).filter((r) => r.phase === 'decision' && match(r));

/** Approves the plan card with "the plan's known steps" (the first plan scope it offers). */
async function approvePlanSteps(): Promise<void> {
  if (!h) throw new Error('no session');
  const planCard = await h.nextRequest();
  const scope = planCard.grantOptions.find((s) => s.match.kind === 'plan_steps');
  if (!scope) throw new Error('no plan scope offered');
  h.decide(planCard.id, { kind: 'approve_all', scope });
}

describe('planSteps reads what a plan names, conservatively', () => {
  it.each([
    [['Run `npm test`'], { commands: ['npm test'], paths: [] }],
    [['Edit `src/app.ts` then `docs/`'], { commands: [], paths: ['src/app.ts', 'docs'] }],
    [['Update src/app.ts and README.md'], { commands: [], paths: ['src/app.ts', 'README.md'] }],
    [['Run `npm test && rm -rf /`'], { commands: [], paths: [] }],
    [['Run `npm test $FLAGS`'], { commands: [], paths: [] }],
    [['Edit `../outside.ts` and `/etc/passwd`'], { commands: [], paths: [] }],
    [['Touch `src/*.ts`'], { commands: [], paths: [] }],
    [['Think hard about it'], { commands: [], paths: [] }],
    [['Run `make` twice: `make`'], { commands: ['make'], paths: [] }],
    [['Run `./build.sh`'], { commands: ['./build.sh'], paths: [] }],
  ])('%j → %j', (steps, expected) => {
    expect(planSteps(steps)).toEqual(expected);
  });

  it('covers nothing for an MCP tool or a read', () => {
    const facts = { tool: 'mcp__x__y', kind: 'write', args: {}, paths: [], sandboxed: true, mcpServer: 'x' };
    expect(planCovers({ commands: [], paths: [] }, facts as CallFacts)).toBe(false);
  });
});

describe('a plan grant through the real core', () => {
  it("allows the plan's listed calls, asks for others, and ends when the plan is done", async () => {
    h = await startSession(
      [
        call('propose_plan', PLAN),
        call('write_file', { path: 'src/app.ts', content: 'export const main = 1;\n' }),
        call('execute_command', { command: 'npm test' }),
        call('write_file', { path: 'src/other.ts', content: 'x\n' }),
        call('execute_command', { command: 'npm run lint' }),
        call('update_plan', { step: 1, done: true }),
        call('update_plan', { step: 2, done: true }),
        call('execute_command', { command: 'npm test' }),
        { text: 'done' },
      ],
      { files: NPM },
    );
    const run = h.session.run('fix it');
    const planCard = await h.nextRequest();
    expect(planCard.preview.kind).toBe('plan');
    const scope = planCard.grantOptions.find((s) => s.match.kind === 'plan_steps' && s.agents.kind === 'all');
    expect(scope?.match).toMatchObject({ commands: ['npm test'], paths: ['src/app.ts'] });
    expect(scope?.label).toContain("the plan's known steps");
    if (!scope) throw new Error('no plan scope offered');
    h.decide(planCard.id, { kind: 'approve_all', scope });
    // The listed write and command run without a card; the unlisted write and command ask.
    const other = await h.nextRequest();
    expect(other.args).toMatchObject({ path: 'src/other.ts' });
    h.decide(other.id, { kind: 'approve' });
    const lint = await h.nextRequest();
    expect(lint.args).toMatchObject({ command: 'npm run lint' });
    h.decide(lint.id, { kind: 'approve' });
    // After both steps are done, the plan's command asks again.
    const after = await h.nextRequest();
    expect(after.args).toMatchObject({ command: 'npm test' });
    expect(h.session.client.snapshot().grants).toEqual([]);
    h.decide(after.id, { kind: 'approve' });
    await run;

    expect(decisionOf(h.home, (r) => (r.args as { path?: string }).path === 'src/app.ts')[0]).toMatchObject({
      approver: 'grant',
    });
    const npmTests = decisionOf(h.home, (r) => (r.args as { command?: string }).command === 'npm test');
    expect(npmTests.map((r) => r.approver)).toEqual(['grant', 'human']);
    expect(readFileSync(join(h.root, 'src/app.ts'), 'utf8')).toBe('export const main = 1;\n');
  });

  it('a plan finished and then put back (a step unticked) does not bring its grant back', async () => {
    h = await startSession(
      [
        call('propose_plan', PLAN),
        call('update_plan', { step: 1, done: true }),
        // Ticked and unticked in one answer: no call's grant check falls between the two.
        {
          toolCalls: [
            { name: 'update_plan', args: { step: 2, done: true } },
            { name: 'update_plan', args: { step: 2, done: false } },
          ],
        },
        call('execute_command', { command: 'npm test' }),
        { text: 'done' },
      ],
      { files: NPM },
    );
    const run = h.session.run('fix it');
    await approvePlanSteps();
    // The plan ended when its last step was ticked: the grant ended with it, unticking does not revive it.
    const npm = await h.nextRequest();
    expect(npm.args).toMatchObject({ command: 'npm test' });
    h.decide(npm.id, { kind: 'approve' });
    await run;
    const npmTests = decisionOf(h.home, (r) => (r.args as { command?: string }).command === 'npm test');
    expect(npmTests.map((r) => r.approver)).toEqual(['human']);
  });

  it('a replaced plan ends the grant', async () => {
    h = await startSession(
      [
        call('propose_plan', PLAN),
        call('propose_plan', { title: 'Another plan', steps: ['Think'] }),
        call('execute_command', { command: 'npm test' }),
        { text: 'done' },
      ],
      { files: NPM },
    );
    const run = h.session.run('fix it');
    await approvePlanSteps();
    const second = await h.nextRequest();
    // A plan that names nothing offers no plan scope.
    expect(second.grantOptions).toEqual([]);
    h.decide(second.id, { kind: 'approve_plan', steps: ['Think'] });
    const npm = await h.nextRequest();
    expect(npm.args).toMatchObject({ command: 'npm test' });
    h.decide(npm.id, { kind: 'approve' });
    await run;
  });

  it('never covers high risk, even when the plan names it', async () => {
    h = await startSession(
      [
        call('propose_plan', { title: 'Clean', steps: ['Run `rm -rf build`'] }),
        call('execute_command', { command: 'rm -rf build' }),
        { text: 'done' },
      ],
      { files: NPM },
    );
    const run = h.session.run('clean');
    await approvePlanSteps();
    const rm = await h.nextRequest();
    expect(rm.risk.level).toBe('high');
    // approve-all is never offered on a high-risk card.
    expect(rm.grantOptions).toEqual([]);
    h.decide(rm.id, { kind: 'reject', reason: 'no' });
    await run;
  });
});
