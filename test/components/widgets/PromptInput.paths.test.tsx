/** `@path` completion in the prompt: Tab asks the core, completes, lists several matches; Enter sends the text. */
import { describe, expect, it } from 'vitest';
import { applyCompletion, commonPrefix, trailingMention } from '../../../components/widgets/path-completion';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, type, waitForFrame, waitUntil } from '../../helpers/ink';
import { renderApp } from '../app-harness';

describe('path completion (pure)', () => {
  it.each([
    ['explain @sr', { at: 8, prefix: 'sr' }],
    ['@', { at: 0, prefix: '' }],
    ['a @src/x and more', undefined],
    ['bob@host', undefined],
    ['two\n@lines', { at: 4, prefix: 'lines' }],
  ])('trailingMention(%j) = %j', (value, mention) => {
    expect(trailingMention(value)).toEqual(mention);
  });

  it.each<[string[], string]>([
    [[], ''],
    [['src/app.ts', 'src/api.ts'], 'src/ap'],
    [['a', 'b'], ''],
  ])('commonPrefix(%j) = %j', (items, common) => {
    expect(commonPrefix(items)).toBe(common);
  });

  it.each<[string, string[], { value: string; list: string[]; none: boolean }]>([
    ['see @sr', ['src/'], { value: 'see @src/', list: [], none: false }],
    ['see @src/a', ['src/a.ts'], { value: 'see @src/a.ts ', list: [], none: false }],
    [
      'see @src/',
      ['src/app.ts', 'src/api.ts'],
      { value: 'see @src/ap', list: ['src/app.ts', 'src/api.ts'], none: false },
    ],
    ['see @x', ['xa', 'xb'], { value: 'see @x', list: ['xa', 'xb'], none: false }],
    ['see @zz', [], { value: 'see @zz', list: [], none: true }],
  ])('applyCompletion(%j, %j)', (value, matches, result) => {
    const mention = trailingMention(value);
    if (!mention) throw new Error('no mention');
    expect(applyCompletion(value, mention, matches)).toEqual(result);
  });
});

/** A core that answers complete_path from a fixed project listing. */
function coreWith(files: string[]): FakeCore {
  const core = new FakeCore();
  core.onCommand = (cmd, c) => {
    if (cmd.type !== 'complete_path') return;
    const cut = cmd.prefix.lastIndexOf('/') + 1;
    const dir = cmd.prefix.slice(0, cut);
    const entries = new Set(
      files
        .filter((f) => f.startsWith(dir))
        .map((f) => {
          const rest = f.slice(dir.length);
          const slash = rest.indexOf('/');
          return dir + (slash === -1 ? rest : rest.slice(0, slash + 1));
        }),
    );
    const matches = [...entries].filter((e) => e.startsWith(cmd.prefix)).sort();
    c.emit({ type: 'path_completions', requestId: cmd.requestId, prefix: cmd.prefix, matches });
  };
  return core;
}

describe('@path in the prompt', () => {
  it('Tab completes through the core, lists several matches, and Enter sends the completed text', async () => {
    const core = coreWith(['src/app.ts', 'src/api.ts', 'README.md']);
    const { stdin, lastFrame } = await renderApp(core);
    await type(stdin, 'explain @sr');
    await waitForFrame(lastFrame, 'Tab completes a project path');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, '› explain @src/');
    await press(stdin, KEY.tab);
    let frame = await waitForFrame(lastFrame, '› explain @src/ap');
    expect(frame).toMatch(/^ {2}src\/api\.ts$/m);
    expect(frame).toMatch(/^ {2}src\/app\.ts$/m);
    await type(stdin, 'p');
    frame = await waitForFrame(lastFrame, '› explain @src/app');
    expect(frame).not.toMatch(/^ {2}src\/api\.ts$/m);
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, '› explain @src/app.ts');
    await type(stdin, 'now');
    await press(stdin, KEY.enter);
    await waitUntil(() =>
      expect(core.sentOf('submit')).toEqual([{ type: 'submit', text: 'explain @src/app.ts now' }]),
    );
    expect(core.sentOf('complete_path').map((c) => c.prefix)).toEqual(['sr', 'src/', 'src/app']);
  });

  it('says so when no project path matches, and lists at most six with a count', async () => {
    const many = Array.from({ length: 9 }, (_, i) => `f${i}.txt`);
    const core = coreWith(many);
    const { stdin, lastFrame } = await renderApp(core);
    await type(stdin, '@zz');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, 'no project path starts with @zz');
    await press(stdin, KEY.backspace, KEY.backspace, 'f');
    await press(stdin, KEY.tab);
    const frame = await waitForFrame(lastFrame, '+3 more');
    expect(frame).toContain('  f5.txt');
    expect(frame).not.toContain('  f6.txt');
  });

  it('a slash command still completes with Tab', async () => {
    const core = coreWith([]);
    const { stdin, lastFrame } = await renderApp(core);
    await type(stdin, '/he');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, '› /help');
    expect(core.sentOf('complete_path')).toEqual([]);
  });
});
