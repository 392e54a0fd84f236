/**
 * Provenance on the card (issue 26 §4): approving `npm test` after an agent changed files the person
 * never saw runs what the agent wrote. The card of a command that runs project code lists them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runsProjectCode } from '../../src/gate/provenance';
import type { CallFacts } from '../../src/policy/facts';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

describe('the card of a command that runs project code lists unreviewed changes', () => {
  it('a file written in auto-edit mode (no diff seen) is listed on `npm test`’s card', async () => {
    h = createGateHarness({ mode: 'auto-edit' });
    expect((await h.call('write_file', { path: '.npmrc-notes.txt', content: 'x' })).status).toBe('executed');
    expect((await h.call('write_file', { path: 'test/a.test.js', content: 'evil()' })).status).toBe(
      'executed',
    );
    const run = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    if (request.preview.kind !== 'command') throw new Error('not a command card');
    expect(request.preview.unreviewed?.files).toEqual(['.npmrc-notes.txt', 'test/a.test.js']);
    h.gate.decide(request.id, { kind: 'reject' });
    await run;
  });

  it('a file whose diff the person approved is not listed; a turn’s review clears its files', async () => {
    h = createGateHarness({ mode: 'manual' });
    const write = h.call('write_file', { path: 'src/a.js', content: 'ok' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
    await write;
    h.gate.provenance.turnEnded('t1', ['scripts/build.sh']);
    const run = h.call('execute_command', { command: 'make build' });
    const request = await h.nextRequest();
    if (request.preview.kind !== 'command') throw new Error('not a command card');
    expect(request.preview.unreviewed?.files).toEqual(['scripts/build.sh']);
    h.gate.decide(request.id, { kind: 'reject' });
    await run;
    h.gate.provenance.reviewed('t1');
    expect(h.gate.provenance.unreviewed()).toEqual({ files: [], commands: 0 });
  });

  it.each([
    ['npm test', true],
    ['make', true],
    ['pytest -q', true],
    ['bash x.sh', true],
    ['./run.sh', true],
    ['cargo test', true],
    ['git status', false],
    ['ls -la', false],
    ['echo hi', false],
  ])('%s runs project code: %s', (command, expected) => {
    const facts = {
      command: {
        kind: 'ok',
        parts: [{ argv: command.split(' ') }],
        readOnly: false,
        destructive: [],
        notes: [],
      },
    } as unknown as CallFacts;
    expect(runsProjectCode(facts)).toBe(expected);
  });
});
