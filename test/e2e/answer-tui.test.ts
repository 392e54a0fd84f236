/**
 * A card in the running app answered from a second terminal with `warden approve`: the app says who
 * answered and goes on, the file lands, and the audit names the approver and the channel. A high-risk
 * card takes the answer only with --confirm-high: the core asks for it, whatever the channel.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';
import { runWarden } from '../helpers/run-warden';

const { launch } = ptyLaunches();

async function waitingId(home: string): Promise<string> {
  const run = await runWarden(['pending', '--json'], { WARDEN_HOME: home });
  return JSON.parse(run.stdout.trim().split('\n')[0] ?? '{}').id as string;
}

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

describe('a card answered from another terminal', () => {
  it.each([
    { cols: 80, rows: 24 },
    { cols: 120, rows: 40 },
  ])(
    'warden approve in a second process at $cols x $rows: the app says who, the file lands, the audit names the channel',
    async (size) => {
      const { app, home, root } = await launch(
        [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }],
        { prompt: 'write a.txt', size },
      );
      await app.waitFor('Approval needed');
      const id = await waitingId(home);
      const approve = await runWarden(['approve', id], { WARDEN_HOME: home });
      expect(approve.code, approve.stderr).toBe(0);
      expect(approve.stdout).toContain('took it');
      await app.waitFor('from another terminal');
      await app.waitFor('All done.');
      expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('hi\n');
      const outcome = auditLines(home).find((r) => r.tool === 'write_file' && r.phase === 'outcome');
      expect(outcome).toMatchObject({
        outcome: 'executed',
        approver: 'human',
        decidedBy: { channel: 'cli', keyId: expect.any(String) },
      });
    },
  );

  it('a high-risk card: refused without --confirm-high (nothing runs), taken with it', async () => {
    const { app, home, root } = await launch(
      [{ toolCalls: [{ name: 'execute_command', args: { command: 'rm -f keep.txt' } }] }],
      { prompt: 'remove keep.txt', files: { 'keep.txt': 'x\n' } },
    );
    await app.waitFor('Approval needed');
    const id = await waitingId(home);
    const plain = await runWarden(['approve', id], { WARDEN_HOME: home });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('--confirm-high');
    expect(existsSync(join(root, 'keep.txt'))).toBe(true);
    const confirmed = await runWarden(['approve', id, '--confirm-high'], { WARDEN_HOME: home });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    await app.waitFor('All done.');
    expect(existsSync(join(root, 'keep.txt'))).toBe(false);
  });
});
