/**
 * Red team, command names: an unquoted pattern as the program (`/???/?m -rf .`, `/bin/r[m] -rf .`)
 * is rm once bash expands it, but the guard judged a program literally named `/???/?m`: not
 * destructive, medium risk, so auto mode ran it with no card and the project was gone — where
 * `rm -rf .` asks even in auto mode. Such a name cannot be judged, so it asks (high).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { judge, MODES, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

describe('a program named by a pattern asks in every mode', () => {
  it('bash expands /bin/r[m] to /bin/rm (the premise)', () => {
    const out = execFileSync('bash', ['-c', 'echo /bin/r[m]'], { cwd: project.root }).toString().trim();
    expect(out).toBe('/bin/rm');
  });

  it.each([
    '/???/?m -rf .',
    '/bin/r[m] -rf .',
    '/usr/bin/l? -la',
    'env /???/?m -rf .',
    'nice -n 5 /bin/r* -rf src',
    'find . -exec /bin/r[m] {} +',
    "bash -c '/bin/r[m] -rf .'",
  ])('%s', (command) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, command, { mode });
      expect(verdict.kind).toBe('cannot_judge');
      if (verdict.kind === 'cannot_judge') expect(verdict.reason).toMatch(/is a pattern bash expands/);
      expect(policy.risk.level).toBe('high');
      expect(policy.decision).toBe(mode === 'plan' ? 'deny' : 'ask');
      expect(grants).toEqual([]);
    }
  });

  it.each(['"/bin/r[m]" x', "'/usr/bin/l?' -la", 'ls *.ts'])(
    'twin: a quoted name or a pattern operand is judged: %s',
    (command) => {
      expect(judge(project.fence, command).verdict.kind).toBe('ok');
    },
  );
});
