import { describe, expect, it } from 'vitest';
import { helpText, parseArgs } from '../../src/config/args';

describe('--continue and --resume', () => {
  it.each([
    [['--continue'], { continue: true, resume: false }],
    [['-c', 'go on'], { continue: true, prompt: 'go on' }],
    [['--resume'], { resume: true, continue: false }],
    [['--headless', '--continue', '-p', 'next'], { headless: true, continue: true, prompt: 'next' }],
    [['--continue', '--fork'], { continue: true, fork: true }],
  ])('%j parses', (argv, expected) => {
    const parsed = parseArgs(argv);
    expect(parsed.ok && parsed.args).toMatchObject({ kind: 'run', ...expected });
  });

  it.each([
    [['--continue', '--resume'], /either --continue/],
    [['--headless', '--resume', '-p', 'x'], /needs the app/],
    [['--demo', '--continue'], /no demo session/],
    [['--continue=yes'], /takes no value/],
    [['--fork'], /use it with --continue/],
  ])('%j is refused', (argv, error) => {
    const parsed = parseArgs(argv);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(error);
  });

  it('the help names both flags and where sessions are kept', () => {
    expect(helpText()).toMatch(/--continue/);
    expect(helpText()).toMatch(/--resume/);
    expect(helpText()).toMatch(/sessions\/<id>\.jsonl/);
  });
});
