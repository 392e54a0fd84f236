/**
 * Red team, read-only commands: one runs with no card only when everything it reads stays inside
 * the project (issue 10 §5). The words were fenced; these were not — a file read through `<`, an
 * operand only known at run time, and relative operands after a `cd` to the home or the previous
 * folder. Each ran in manual mode with no card and sent, say, ~/.bash_history to the model (the
 * sandbox hides only the credential folders it knows).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BWRAP, judge, MODES, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

describe('a read outside the project, however it is written, asks', () => {
  it.each([
    ['cat < /etc/passwd', '/etc/passwd'],
    ['cat < ../x', '../x'],
    ['wc -l < ~/.bash_history', '~/.bash_history'],
    ['cat 0< /etc/passwd', '/etc/passwd'],
    ['cat - < /etc/passwd', '/etc/passwd'],
    ['cat "$OLDPWD/x"', '$OLDPWD/x (only known at run time)'],
    ['cat ${HOME:-x}/.bash_history', '${HOME:-x}/.bash_history (only known at run time)'],
    ['cat $(dirname $PWD)/x', '$(dirname $PWD)/x (only known at run time)'],
    ['for d in ..; do cat $d/x; done', '$d/x (only known at run time)'],
    ['read -r p <<< /etc/passwd; cat "$p"', '$p (only known at run time)'],
    ['cat ${BASH%/*/*}/etc/passwd', '${BASH%/*/*}/etc/passwd (only known at run time)'],
    ['cd; cat .bash_history', 'cd'],
    ['cd -; cat x', 'cd -'],
    ['cd -P; cat .bash_history', 'cd -P'],
    ['popd; cat x', 'popd'],
    ['cd "$OLDPWD"; cat x', '$OLDPWD (only known at run time)'],
  ])('%j', (command, named) => {
    for (const mode of MODES.filter((m) => m !== 'plan')) {
      const { facts, policy } = judge(project.fence, command, { mode, sandbox: BWRAP });
      expect(facts.command?.kind === 'ok' && facts.command.readOnly).toBe(true);
      expect(facts.readsOutside).toBe(named);
      // Low risk: one card, and "every execute_command call" may still be granted by a person.
      expect(policy.decision).toBe(mode === 'auto' ? 'allow' : 'ask');
      expect(policy.rule.id).not.toBe('default-allow-read-only-command');
    }
  });

  it.each([
    'cat < a.txt',
    'sort < src/list.txt',
    'echo "$USER"',
    'for f in a b; do echo "$f"; done',
    'test -n "$x" && echo set',
    'cd src; cat a.txt',
    'printf "%s\\n" "$PWD"',
  ])('twin inside the project, or a value no program opens, runs free: %j', (command) => {
    const { facts, policy } = judge(project.fence, command);
    expect(facts.readsOutside).toBeUndefined();
    expect(policy.decision).toBe('allow');
    expect(policy.rule.id).toBe('default-allow-read-only-command');
  });
});
