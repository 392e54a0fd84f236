import { describe, expect, it } from 'vitest';
import { expandCommand, parseCommandFile } from '../../src/commands/command-file';

describe('parseCommandFile', () => {
  it('reads description and argument-hint; the prompt is what follows the front matter', () => {
    const parsed = parseCommandFile(
      '---\ndescription: Review a pull request\nargument-hint: "[number]"\n---\n\nReview PR $ARGUMENTS.\n',
    );
    expect(parsed).toEqual({
      ok: true,
      file: {
        description: 'Review a pull request',
        argumentHint: '[number]',
        body: 'Review PR $ARGUMENTS.',
        ignored: [],
      },
    });
  });

  it('a file without front matter is all prompt; CRLF and a BOM are fine', () => {
    expect(parseCommandFile('\uFEFFFix the lint errors.\r\n')).toEqual({
      ok: true,
      file: { body: 'Fix the lint errors.', ignored: [] },
    });
  });

  it('keys other agents use load the command, said as ignored (allowed-tools never allows anything)', () => {
    const parsed = parseCommandFile('---\nallowed-tools: Bash(git *)\nmodel: opus\ncolor: red\n---\nGo.');
    expect(parsed.ok && parsed.file.ignored).toEqual([
      'allowed-tools: warden does not let a command file allow tools: the gate decides every call',
      'model: a command runs with the session’s model (/model switches it)',
      'color: not a key warden reads',
    ]);
  });

  it.each([
    ['---\ndescription: x\nGo.', /never closed/],
    ['---\ndescription x\n---\nGo.', /line 2 is not "key: value"/],
    ['---\ndescription: >\n  long\n---\nGo.', /line 2: write the description on one line/],
    ['---\ndescription: "open\n---\nGo.', /line 2: the " quote does not close/],
    [`---\ndescription: ${'d'.repeat(301)}\n---\nGo.`, /longer than 300 characters/],
    ['---\ndescription: nothing here\n---\n\n  \n', /no prompt/],
    ['', /no prompt/],
  ])('bad front matter %#: a clear error', (text, error) => {
    const parsed = parseCommandFile(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(error);
  });
});

describe('expandCommand', () => {
  it('$ARGUMENTS takes everything after the name; $1…$9 its words, quotes keep spaces', () => {
    expect(expandCommand('Deploy $1 to $2 ($ARGUMENTS).', 'web "eu west"')).toBe(
      'Deploy web to eu west (web "eu west").',
    );
    expect(expandCommand('Missing $3.', 'a b')).toBe('Missing .');
  });

  it('a prompt that names no argument gets them appended; none given, nothing is added', () => {
    expect(expandCommand('Fix the tests.', 'only unit ones')).toBe(
      'Fix the tests.\n\nARGUMENTS: only unit ones',
    );
    expect(expandCommand('Fix the tests.', '  ')).toBe('Fix the tests.');
    expect(expandCommand('Use $ARGUMENTS.', '')).toBe('Use .');
  });

  it('$ARGUMENTSX is not the placeholder', () => {
    expect(expandCommand('$ARGUMENTSX', 'a')).toBe('$ARGUMENTSX\n\nARGUMENTS: a');
  });
});
