/**
 * The instruction files in a real session: yours, the project's and its folders' reach the system
 * prompt and the state (/memory); /init proposes AGENTS.md as a write_file diff card, writes it only on
 * approve, and the next request carries it; an existing AGENTS.md is never replaced.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const systemOf = (s: SessionHarness, i: number) =>
  String(s.fake.requests[i]?.body.messages[0]?.content ?? '');
const notices = (s: SessionHarness) =>
  s.events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])).join('\n');
const turns = (s: SessionHarness) => s.events.filter((e) => e.type === 'turn_done').length;

describe('instruction files in a session', () => {
  it('yours, the project’s and a folder’s on the way to the working directory are in the prompt and the state', async () => {
    h = await startSession([{ text: 'ok' }], {
      files: { 'AGENTS.md': 'Use pnpm.', 'pkg/AGENTS.md': 'ESM only.', 'lib/AGENTS.md': 'elsewhere' },
      homeFiles: { 'AGENTS.md': 'Be brief.' },
      cwd: 'pkg',
    });
    expect(h.session.client.snapshot().instructions).toEqual([
      { path: join(h.home, 'AGENTS.md'), scope: 'person', bytes: 9 },
      { path: join(h.root, 'AGENTS.md'), scope: 'project', bytes: 9 },
      { path: join(h.root, 'pkg', 'AGENTS.md'), scope: 'folder', bytes: 9, folder: 'pkg' },
    ]);
    h.session.client.send({ type: 'submit', text: 'hello' });
    await expect.poll(() => turns(h as SessionHarness), { timeout: 10_000 }).toBe(1);
    const system = systemOf(h, 0);
    for (const text of ['Be brief.', 'Use pnpm.', 'ESM only.']) expect(system).toContain(text);
    expect(system).not.toContain('elsewhere');
  });

  it('/init shows a diff card for a new AGENTS.md, writes it on approve, and the next request has it', async () => {
    h = await startSession([{ text: 'first' }, { text: 'second' }], {
      files: { 'package.json': JSON.stringify({ scripts: { test: 'vitest' } }), 'src/a.js': '' },
    });
    h.session.client.send({ type: 'submit', text: 'hello' });
    await expect.poll(() => turns(h as SessionHarness), { timeout: 10_000 }).toBe(1);
    expect(systemOf(h, 0)).not.toContain("The project's AGENTS.md");
    h.session.client.send({ type: 'init_instructions' });
    const card = await h.nextRequest();
    expect(card.preview).toMatchObject({ kind: 'diff', path: 'AGENTS.md', isNew: true });
    expect(card.preview.kind === 'diff' && card.preview.after).toContain('- Test: `npm test`');
    expect(card.agentName).toBe('you');
    expect(existsSync(join(h.root, 'AGENTS.md'))).toBe(false);
    h.decide(card.id, { kind: 'approve' });
    await expect.poll(() => notices(h as SessionHarness), { timeout: 10_000 }).toContain('Wrote AGENTS.md');
    expect(readFileSync(join(h.root, 'AGENTS.md'), 'utf8')).toContain('# AGENTS.md');
    expect(h.session.client.snapshot().instructions?.map((f) => f.scope)).toEqual(['project']);
    h.session.client.send({ type: 'submit', text: 'again' });
    await expect.poll(() => turns(h as SessionHarness), { timeout: 10_000 }).toBe(2);
    expect(systemOf(h, 1)).toContain('- Test: `npm test`');
  });

  it('/init rejected writes nothing; with an AGENTS.md there, it asks nothing and replaces nothing', async () => {
    h = await startSession([]);
    h.session.client.send({ type: 'init_instructions' });
    const card = await h.nextRequest();
    h.decide(card.id, { kind: 'reject' });
    await expect.poll(() => notices(h as SessionHarness)).toContain('AGENTS.md was not written (rejected');
    expect(existsSync(join(h.root, 'AGENTS.md'))).toBe(false);
    await h.dispose();
    h = await startSession([], { files: { 'AGENTS.md': 'mine' } });
    h.session.client.send({ type: 'init_instructions' });
    await expect
      .poll(() => notices(h as SessionHarness))
      .toContain('already exists; /init does not replace it');
    expect(h.session.client.snapshot().pending).toEqual([]);
    expect(readFileSync(join(h.root, 'AGENTS.md'), 'utf8')).toBe('mine');
  });
});
