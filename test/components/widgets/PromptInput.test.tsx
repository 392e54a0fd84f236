import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { PromptInput } from '../../../components/widgets/PromptInput';
import { KEY, press, type, waitForFrame } from '../../helpers/ink';

function setup(props: Partial<Parameters<typeof PromptInput>[0]> = {}) {
  const onSubmit = vi.fn();
  const view = render(<PromptInput isActive width={100} onSubmit={onSubmit} {...props} />);
  return { ...view, onSubmit };
}

/** The prompt line (first line of the frame), without the "› " marker. */
const promptLine = (frame: string) => (frame.split('\n')[0] ?? '').replace(/^›\s?/, '').trimEnd();

describe('PromptInput', () => {
  it('submits the typed text and clears the line', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, 'hello there');
    await waitForFrame(lastFrame, 'hello there');
    await press(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('hello there');
    await waitForFrame(lastFrame, (f) => promptLine(f) === '');
  });

  it('does nothing on an empty or blank line', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin, KEY.enter);
    await type(stdin, '   ');
    await press(stdin, KEY.enter);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('recalls submitted prompts with ↑ and returns to the draft with ↓', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    for (const text of ['first', 'second']) {
      await type(stdin, text);
      await waitForFrame(lastFrame, text);
      await press(stdin, KEY.enter);
    }
    await type(stdin, 'draft');
    await waitForFrame(lastFrame, 'draft');
    await press(stdin, KEY.up);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'second');
    await press(stdin, KEY.up);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'first');
    await press(stdin, KEY.up);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'first');
    await press(stdin, KEY.down);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'second');
    await press(stdin, KEY.down);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'draft');
  });

  it('puts the cursor at the end of a recalled prompt, so typing appends', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, 'a long earlier prompt');
    await press(stdin, KEY.enter);
    await type(stdin, 'x');
    await press(stdin, KEY.backspace, KEY.up);
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'a long earlier prompt');
    await type(stdin, '!');
    await press(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenLastCalledWith('a long earlier prompt!');
  });

  it('lists matching commands and completes the unique one with Tab', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, '/m');
    await waitForFrame(lastFrame, '/mode  /memory  /model  /mcp');
    await type(stdin, 'c');
    await waitForFrame(lastFrame, '/mcp — MCP servers; r restarts the selected one');
    await press(stdin, KEY.backspace);
    // /mode is whole though /model shares it: Tab completes it.
    await type(stdin, 'ode');
    await waitForFrame(lastFrame, '/mode  /model');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, (f) => promptLine(f) === '/mode');
    await type(stdin, 'pl');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, (f) => promptLine(f) === '/mode plan');
  });

  it('completes to the longest common prefix of several matches', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, '/mode a');
    await waitForFrame(lastFrame, 'auto-edit | auto');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, (f) => promptLine(f) === '/mode auto');
  });

  it('hints when no command matches', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, '/zap');
    await waitForFrame(lastFrame, 'no command matches /zap — /help lists them');
  });

  it('never types the letter of a Ctrl chord (Ctrl+T toggles the sidebar elsewhere)', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await type(stdin, 'ab');
    await press(stdin, KEY.ctrl('t'), KEY.ctrl('g'));
    await type(stdin, 'c');
    await press(stdin, KEY.ctrl('a'));
    await press(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('abc');
  });

  it('shows a message from the app on the hint line', async () => {
    const { lastFrame } = setup({ message: { level: 'warn', text: 'the core is busy' } });
    await waitForFrame(lastFrame, 'the core is busy');
  });

  it('ignores keys while inactive', async () => {
    const { stdin, lastFrame, onSubmit } = setup({ isActive: false });
    await waitForFrame(lastFrame, '·');
    await type(stdin, 'nope');
    await press(stdin, KEY.enter);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).not.toContain('nope');
  });
});

describe('PromptInput with text arriving in one chunk', () => {
  it('submits text followed by Enter in the same chunk', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin, '/help\r');
    expect(onSubmit).toHaveBeenCalledWith('/help');
    expect(lastFrame()).not.toContain('\r');
  });

  it('keeps the line breaks of a paste as newlines, never a raw carriage return', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin, 'first line\r\nsecond line\rthird');
    const frame = await waitForFrame(lastFrame, 'third');
    expect(frame).toContain('first line\n  second line\n  third');
    expect(lastFrame()).not.toContain('\r');
    expect(onSubmit).not.toHaveBeenCalled();
    await press(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('first line\nsecond line\nthird');
  });
});

describe('PromptInput with keys arriving back to back (no render in between)', () => {
  const burst = (stdin: { write: (s: string) => void }, ...keys: string[]) => {
    for (const key of keys) stdin.write(key);
  };

  it('applies Backspace and the next letter to the latest value', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin);
    burst(stdin, 'a', 'b', KEY.backspace, 'x');
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'ax');
  });

  it('submits the whole text on an Enter right after it, and what follows starts a new line', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin);
    burst(stdin, ...'fix it', KEY.enter, ...'next');
    expect(onSubmit).toHaveBeenCalledWith('fix it');
    await waitForFrame(lastFrame, (f) => promptLine(f) === 'next');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('types after a Tab completion onto the completed command', async () => {
    const { stdin, lastFrame } = setup();
    await waitForFrame(lastFrame, '›');
    await press(stdin);
    // Completion adds the space after the command.
    burst(stdin, '/', 'm', 'o', 'd', 'e', KEY.tab, 'p', 'l');
    await waitForFrame(lastFrame, (f) => promptLine(f) === '/mode pl');
  });
});
