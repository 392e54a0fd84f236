/**
 * Red team, command writes: `find -fprint FILE` (and -fprint0, -fprintf, -fls) writes FILE, but the
 * guard listed no write, so the fence never saw it: `find . -fprint /etc/x` asked instead of being
 * blocked, and a card for `find . -fprint out` offered the grant `find . *`, which then also covered
 * `find . -fprint ~/.bashrc` (without a sandbox nothing else stops that write).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judge, NO_SANDBOX, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

describe('find writes the files its -fprint family names', () => {
  it.each([
    ['find . -fprint list.txt', 'list.txt'],
    ['find . -type f -fprint0 list.txt', 'list.txt'],
    ['find . -fprintf list.txt %p', 'list.txt'],
    ['find . -name a -fls list.txt', 'list.txt'],
  ])('%s writes %s (proved with find), and no grant is offered for it', (command, file) => {
    execFileSync('bash', ['-c', command], { cwd: project.root, stdio: 'ignore' });
    expect(existsSync(join(project.root, file))).toBe(true);
    const { verdict, grants } = judge(project.fence, command, { sandbox: NO_SANDBOX });
    expect(verdict.parts.flatMap((p) => p.writes ?? [])).toEqual([file]);
    expect(grants.filter((g) => g.match.kind === 'command_prefix')).toEqual([]);
  });

  it.each([
    ['find . -fprint /etc/x', 'path-fence'],
    ['find . -name a -fls ../x', 'path-fence'],
    ['find . -fprintf ~/.bashrc %p', 'path-invalid'],
  ])('%s: outside the project, blocked in every mode (%s)', (command, rule) => {
    for (const mode of ['manual', 'auto'] as const) {
      const { policy } = judge(project.fence, command, { mode, sandbox: NO_SANDBOX });
      expect(policy.decision).toBe('deny');
      expect(policy.rule.id).toBe(rule);
    }
  });

  it('find . -fprint0 "$X": a target only known at run time asks, high risk', () => {
    const { verdict, policy } = judge(project.fence, 'find . -fprint0 "$X"');
    expect(verdict.kind).toBe('cannot_judge');
    expect(policy.risk.level).toBe('high');
  });
});
