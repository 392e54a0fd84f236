/**
 * The person's own edits are never thrown away (issue 29 §2), through the real binary: while a turn
 * runs, the person's editor adds a deny rule to $WARDEN_HOME/policy.json. The calls running then
 * cannot write there (warden's fenced file tools), so the edit is kept — not moved aside as
 * `.rejected-*` — read again, and the deny rule stops the turn's next write; headless says so.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeModel, headlessWarden, tempPlaces, useCleanup } from '../helpers/headless-run';

const later = useCleanup();

const write = (path: string) => ({ toolCalls: [{ name: 'write_file', args: { path, content: 'x\n' } }] });

describe("the person's edit of policy.json during a turn", () => {
  it('is kept and read again: its deny rule counts from the next call, and nothing is moved aside', async () => {
    const at = tempPlaces(later, 'edits');
    const { root, home } = at;
    const policy = join(home, 'policy.json');
    writeFileSync(policy, '{"rules":[]}\n');
    const edit = `${JSON.stringify({ rules: [{ tool: 'write_file', when: { path: 'b.txt' }, decision: 'deny' }] })}\n`;
    const server = await fakeModel(later, [
      write('a.txt'),
      () => {
        writeFileSync(policy, edit); // the person's editor, while the turn runs
        return write('c.txt');
      },
      write('b.txt'),
      { text: 'done' },
    ]);
    const run = await headlessWarden(at, server, ['--mode', 'auto-edit', '-p', 'write three files']);
    expect(readFileSync(policy, 'utf8')).toBe(edit);
    expect(readdirSync(home).filter((f) => f.includes('.rejected-'))).toEqual([]);
    expect(run.stderr).toMatch(/policy\.json changed while write_file ran, which cannot write there: kept/);
    expect(existsSync(join(root, 'c.txt'))).toBe(true);
    expect(existsSync(join(root, 'b.txt'))).toBe(false);
    expect(run.stderr).toMatch(/write_file blocked/);
    expect(run.code).toBe(3);
  });
});
