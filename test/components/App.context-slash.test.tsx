/** /compact and /model in the prompt (issue 15 §4): each sends its core command; /help lists them. */
import { describe, expect, it } from 'vitest';
import type { CoreCommand } from '../../src/protocol';
import { FakeCore } from '../helpers/fake-core';
import { KEY, press, type, waitForFrame, waitUntil } from '../helpers/ink';
import { renderApp } from './app-harness';

describe('/compact and /model', () => {
  it.each<[string, CoreCommand]>([
    ['/compact', { type: 'compact' }],
    ['/model', { type: 'list_models' }],
    ['/model gpt-4.1-mini', { type: 'set_model', name: 'gpt-4.1-mini' }],
  ])('%s sends %j', async (text, command) => {
    const core = new FakeCore();
    const { stdin } = await renderApp(core);
    await type(stdin, text);
    await press(stdin, KEY.enter);
    await waitUntil(() => expect(core.sent).toContainEqual(command));
    expect(core.sentOf('submit')).toEqual([]);
  });

  it('/help lists both', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core, { rows: 60, columns: 160 });
    await type(stdin, '/help');
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, 'Keys');
    // The commands are below the keys; End scrolls there when the terminal is too short for both.
    await press(stdin, KEY.end);
    const frame = await waitForFrame(lastFrame, '/model [NAME]');
    expect(frame).toContain('/compact');
  });
});
