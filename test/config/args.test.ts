import { describe, expect, it } from 'vitest';
import { type CliArgs, helpText, parseArgs } from '../../src/config/args';

const run = (extra: Partial<Extract<CliArgs, { kind: 'run' }>> = {}): CliArgs => ({
  kind: 'run',
  headless: false,
  json: false,
  demo: false,
  trustProject: false,
  continue: false,
  resume: false,
  ...extra,
});

describe('parseArgs', () => {
  it.each<[string[], CliArgs]>([
    [[], run()],
    [['fix the failing test'], run({ prompt: 'fix the failing test' })],
    [['fix', 'the', 'bug'], run({ prompt: 'fix the bug' })],
    [['--headless', '-p', 'do it'], run({ headless: true, prompt: 'do it' })],
    [['--headless', '--prompt=do it', '--json'], run({ headless: true, json: true, prompt: 'do it' })],
    [['--prompt', 'x'], run({ prompt: 'x' })],
    [['--prompt=-x is odd'], run({ prompt: '-x is odd' })],
    [['--root', '/tmp/p'], run({ root: '/tmp/p' })],
    [['--root=../p'], run({ root: '../p' })],
    [['--mode', 'plan'], run({ mode: 'plan' })],
    [['--mode=auto-edit'], run({ mode: 'auto-edit' })],
    [['--mode', 'plan', '--mode', 'auto'], run({ mode: 'auto' })],
    [['--model', 'gpt-x'], run({ model: 'gpt-x' })],
    [['--demo'], run({ demo: true })],
    [['--demo', 'show me'], run({ demo: true, prompt: 'show me' })],
    [['--headless', '--trust-project', '-p', 'x'], run({ headless: true, trustProject: true, prompt: 'x' })],
    [['--', '--not-a-flag', 'text'], run({ prompt: '--not-a-flag text' })],
    [['--mode', 'plan', '--', 'audit'], run({ mode: 'plan', prompt: 'audit' })],
    [['-h'], { kind: 'help' }],
    [['--help'], { kind: 'help' }],
    [['--bogus', '--help'], { kind: 'help' }],
    [['-v'], { kind: 'version' }],
    [['--version'], { kind: 'version' }],
    [['audit'], { kind: 'audit', argv: [] }],
    [['audit', '--tool', 'x', '--help'], { kind: 'audit', argv: ['--tool', 'x', '--help'] }],
    [['--', '--help'], run({ prompt: '--help' })],
  ])('%j', (argv, expected) => {
    expect(parseArgs(argv)).toEqual({ ok: true, args: expected });
  });

  it.each<[string[], string]>([
    [['--bogus'], 'unknown flag --bogus'],
    [['--mdoe', 'plan'], 'unknown flag --mdoe (did you mean --mode?)'],
    [['-mode', 'plan'], 'unknown flag -mode (did you mean --mode?)'],
    [['-x'], 'unknown flag -x'],
    [['--mode'], '--mode needs a value'],
    [['--mode', '--headless'], '--mode needs a value'],
    [['--mode', 'yolo'], '--mode: expected one of manual, auto-edit, plan, auto, got "yolo"'],
    [['--mode='], '--mode: expected a non-empty value'],
    [['--root'], '--root needs a value'],
    [['--root', ''], '--root: expected a non-empty value'],
    [['--model'], '--model needs a value'],
    [['-p'], '-p needs a value (a prompt that starts with "-" can be given as -p=...)'],
    [
      ['--prompt', '--json'],
      '--prompt needs a value (a prompt that starts with "-" can be given as --prompt=...)',
    ],
    [['--json'], '--json only works with --headless'],
    [['--json', 'hi'], '--json only works with --headless'],
    [['--headless=yes'], '--headless takes no value'],
    [['-p', 'a', 'b'], 'give the prompt either with -p/--prompt or as words, not both'],
    [['--demo', '--model', 'm'], '--demo uses the scripted demo model; drop --model'],
  ])('%j is an error', (argv, error) => {
    expect(parseArgs(argv)).toEqual({ ok: false, error });
  });
});

describe('helpText', () => {
  it('names every flag, the subcommand and the environment', () => {
    const text = helpText('1.2.3');
    expect(text.startsWith('warden 1.2.3:')).toBe(true);
    for (const flag of [
      '--prompt',
      '-p,',
      '--headless',
      '--json',
      '--root',
      '--mode',
      '--model',
      '--demo',
      '--help',
      '--version',
      'audit',
    ]) {
      expect(text).toContain(flag);
    }
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'WARDEN_MODEL', 'WARDEN_MODE', 'WARDEN_HOME'])
      expect(text).toContain(name);
    expect(text).toContain('manual | auto-edit | plan | auto');
  });
});
