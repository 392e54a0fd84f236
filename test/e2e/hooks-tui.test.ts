/**
 * PermissionRequest hooks in the running app: a hook's approve settles the card before it is shown
 * (the file lands, the audit names the hook); a hook that fails leaves the card to the person, who
 * is told why on it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';

const { launch } = ptyLaunches();

const writeA = [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }];

/** A config whose PermissionRequest hook prints `out` (a `sh` one-liner that reads its stdin first). */
const hookConfig = (out: string) =>
  JSON.stringify({
    hooks: {
      PermissionRequest: [
        { matcher: 'Write', command: `cat >/dev/null; printf '%s' '${out}'`, name: 'gatekeeper' },
      ],
    },
  });

function auditLines(home: string): Record<string, unknown>[] {
  const dir = join(home, 'audit');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
}

describe('PermissionRequest hooks in the app', () => {
  it("a hook's approve: no card waits, the file lands, the audit names the hook", async () => {
    const allow = JSON.stringify({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    const { app, home, root } = await launch(writeA, {
      prompt: 'write a.txt',
      homeFiles: { 'config.json': hookConfig(allow) },
    });
    await app.waitFor('All done.');
    expect(app.screen()).not.toContain('Approval needed');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('hi\n');
    const outcome = auditLines(home).find((r) => r.tool === 'write_file' && r.phase === 'outcome');
    expect(outcome).toMatchObject({
      approver: 'hook:gatekeeper',
      decidedBy: { channel: 'hook', hook: 'gatekeeper' },
    });
  });

  it("a hook that prints garbage: the card is the person's, and says the hook failed", async () => {
    const { app, root } = await launch(writeA, {
      prompt: 'write a.txt',
      homeFiles: { 'config.json': hookConfig('approve please') },
    });
    await app.waitFor('Approval needed');
    await app.waitFor(/hook_failed \(bad_json\)/);
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    await app.pressOnCard('y', 'All done.');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('hi\n');
  });
});
