/**
 * The conventions people bring, in the app: custom commands complete, show in /help (hidden ones with
 * why) and run as `run_command`; /policy test, /init and /memory.
 */
import { describe, expect, it } from 'vitest';
import type { CustomCommandInfo } from '../../src/protocol';
import { complete, allCommands } from '../../components/widgets/slash-commands';
import { FakeCore } from '../helpers/fake-core';
import { KEY, press, type, waitForFrame } from '../helpers/ink';
import { renderApp } from './app-harness';

async function run(stdin: { write: (s: string) => void }, text: string) {
  await type(stdin, text);
  await press(stdin, KEY.enter);
}

const custom: CustomCommandInfo[] = [
  {
    name: 'review',
    source: 'user',
    file: '/h/commands/review.md',
    description: 'Review the diff',
    argumentHint: '[path]',
  },
  { name: 'help', source: 'user', file: '/h/commands/help.md', hidden: 'built-in' },
  { name: 'ship', source: 'project', file: '/p/.warden/commands/ship.md', hidden: 'untrusted' },
];

describe('custom commands in the prompt', () => {
  it('complete with the built-ins; hidden ones are not offered', () => {
    const commands = allCommands(custom);
    expect(complete('/rev', commands)).toEqual({ matches: ['review'], completed: '/review ' });
    expect(complete('/sh', commands).matches).toEqual([]);
    expect(complete('/he', commands).matches).toEqual(['help']);
  });

  it('/review src sends run_command with the rest as arguments; the hint shows its description', async () => {
    const core = new FakeCore({ customCommands: custom });
    const { stdin, lastFrame } = await renderApp(core);
    await type(stdin, '/review');
    await waitForFrame(lastFrame, '/review [path] — Review the diff (yours)');
    await type(stdin, ' src/a.ts  now');
    await press(stdin, KEY.enter);
    expect(core.sent).toEqual([{ type: 'run_command', name: 'review', args: 'src/a.ts  now' }]);
  });

  it('a held-back project command is sent too (the core says why); /help is still the built-in', async () => {
    const core = new FakeCore({ customCommands: custom });
    const { stdin, lastFrame } = await renderApp(core, { rows: 60 });
    await run(stdin, '/ship');
    expect(core.sent).toEqual([{ type: 'run_command', name: 'ship', args: '' }]);
    await run(stdin, '/help');
    await waitForFrame(lastFrame, 'Keys');
    await press(stdin, KEY.end);
    const f = await waitForFrame(lastFrame, 'Custom commands');
    expect(f).toContain('/review [path]');
    expect(f).toMatch(/\/help\s+not offered: a built-in command has this name/);
    expect(f).toMatch(/\/ship\s+held back until you trust/);
  });
});

describe('/policy test, /init, /memory', () => {
  it('/policy test COMMAND sends test_policy; /policy alone opens the panel; a bad word is explained', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/policy test git push --force origin main');
    expect(core.sent).toEqual([{ type: 'test_policy', command: 'git push --force origin main' }]);
    await run(stdin, '/policy test');
    await waitForFrame(lastFrame, '/policy test needs a command');
    await run(stdin, '/policy check ls');
    await waitForFrame(lastFrame, '/policy takes "test COMMAND"');
    expect(core.sent).toHaveLength(1);
  });

  it('/init sends init_instructions; /memory lists the files with their size, and says /init when there is none', async () => {
    const core = new FakeCore({
      instructions: [
        { path: '/home/me/.warden/AGENTS.md', scope: 'person', bytes: 2048 },
        { path: '/p/pkg/AGENTS.md', scope: 'folder', folder: 'pkg', bytes: 70_000, truncated: true },
      ],
    });
    const { stdin, lastFrame } = await renderApp(core, { rows: 40 });
    await run(stdin, '/init');
    expect(core.sent).toEqual([{ type: 'init_instructions' }]);
    await run(stdin, '/memory');
    const f = await waitForFrame(lastFrame, 'Instruction files in the system prompt');
    expect(f).toMatch(/yours\s+\/home\/me\/\.warden\/AGENTS\.md\s+2(\.0)? KB/);
    expect(f).toMatch(/folder\s+\/p\/pkg\/AGENTS\.md\s+68(\.4)? KB · cut/);
    expect(f).toContain('/init proposes a first one');
  });
});
