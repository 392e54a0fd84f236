import { type Key, Text } from 'ink';
import { render } from 'ink-testing-library';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useKeys } from '../../../components/keys/use-keys';
import { TextField } from '../../../components/widgets/TextField';
import { KEY, press, stripAnsi, waitForFrame } from '../../helpers/ink';

/**
 * A parent like PromptInput: holds the value, clears it after a submit, and on "\x1b[5~" (Page
 * Up, which the field leaves alone) replaces it from outside, as history recall does.
 */
function Parent(props: {
  onSubmit: (v: string) => void;
  onChange?: (v: string) => void;
  isActive?: boolean;
  placeholder?: string;
  onKey?: (input: string, key: Key) => void;
  gate?: () => boolean;
}): ReactNode {
  const [value, setValue] = useState('');
  useKeys(
    (_input, key) => {
      if (key.pageUp) setValue('recalled');
    },
    { isActive: true },
  );
  return (
    <Text>
      {'> '}
      <TextField
        value={value}
        onChange={(next) => {
          props.onChange?.(next);
          setValue(next);
        }}
        onSubmit={(v) => {
          props.onSubmit(v);
          setValue('');
        }}
        isActive={props.isActive ?? true}
        placeholder={props.placeholder}
        onKey={props.onKey}
        gate={props.gate}
      />
    </Text>
  );
}

async function setup(props: Partial<Parameters<typeof Parent>[0]> = {}) {
  const onSubmit = vi.fn();
  const onChange = vi.fn();
  const view = render(<Parent onSubmit={onSubmit} onChange={onChange} {...props} />);
  await waitForFrame(view.lastFrame, '>');
  // No keys: lets Ink subscribe the field's input handler (a passive effect) before the test types.
  await press(view.stdin);
  return { ...view, onSubmit, onChange };
}

/** The field's line without the "> " marker; the cursor block at the end shows as a space. */
const line = (frame: string) => (frame.split('\n')[0] ?? '').replace(/^>\s?/, '').trimEnd();

/** Writes every key in one synchronous burst: no turn of the event loop between them. */
const burst = (stdin: { write: (s: string) => void }, ...keys: string[]) => {
  for (const key of keys) stdin.write(key);
};

describe('TextField echo', () => {
  it("asks for each edit's frame at once (the bundle's draw-now), not at the end of Ink's frame window", async () => {
    const drawNow = vi.fn();
    (globalThis as { __wardenDrawNow?: () => void }).__wardenDrawNow = drawNow;
    try {
      const { stdin, lastFrame } = await setup();
      const before = drawNow.mock.calls.length;
      burst(stdin, 'a');
      await waitForFrame(lastFrame, (f) => line(f) === 'a');
      burst(stdin, 'b');
      await waitForFrame(lastFrame, (f) => line(f) === 'ab');
      expect(drawNow.mock.calls.length).toBeGreaterThanOrEqual(before + 2);
    } finally {
      delete (globalThis as { __wardenDrawNow?: () => void }).__wardenDrawNow;
    }
  });
});

describe('TextField with keys arriving back to back', () => {
  it('applies Backspace and the next letter to the latest value', async () => {
    const { stdin, lastFrame, onChange } = await setup();
    burst(stdin, 'a', KEY.backspace, 'x');
    await waitForFrame(lastFrame, (f) => line(f) === 'x');
    expect(onChange.mock.calls.map(([v]) => v)).toEqual(['a', '', 'x']);
    burst(stdin, 'y', 'z', KEY.backspace, KEY.backspace, KEY.backspace, 'q');
    await waitForFrame(lastFrame, (f) => line(f) === 'q');
  });

  it('keeps every character of fast typing', async () => {
    const { stdin, lastFrame } = await setup();
    burst(stdin, ...'the quick brown fox');
    await waitForFrame(lastFrame, (f) => line(f) === 'the quick brown fox');
  });

  it('submits the full text on an Enter right after it, then shows the cleared value', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'h', 'i', KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('hi');
    await waitForFrame(lastFrame, (f) => line(f) === '');
    burst(stdin, 'n', 'e', 'w');
    await waitForFrame(lastFrame, (f) => line(f) === 'new');
  });

  it('submits a paste that ends in a line break, with no raw carriage return on screen', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'ok ', 'pasted text\r');
    expect(onSubmit).toHaveBeenCalledWith('ok pasted text');
    const frame = await waitForFrame(lastFrame, (f) => line(f) === '');
    expect(frame).not.toContain('\r');
  });

  it('keeps the line breaks of a multi-line paste as text', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'one\r\ntwo\rthree');
    await waitForFrame(lastFrame, 'one\ntwo\nthree');
    expect(onSubmit).not.toHaveBeenCalled();
    burst(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('one\ntwo\nthree');
  });

  it('moves the cursor with ←/→/Home/End and inserts where it is', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'a', 'c', KEY.left, 'b', KEY.home, '[', KEY.end, ']', KEY.left, KEY.left, KEY.right, '!');
    await waitForFrame(lastFrame, (f) => line(f) === '[abc!]');
    burst(stdin, KEY.ctrl('a'), '>', KEY.ctrl('e'), '<', KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('>[abc!]<');
  });

  it('deletes to the start with Ctrl+U and the previous word with Ctrl+W', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, ...'git commit -m', KEY.ctrl('w'), KEY.ctrl('w'));
    await waitForFrame(lastFrame, (f) => line(f) === 'git');
    burst(stdin, ...' log --oneline', KEY.left, KEY.left, KEY.left, KEY.ctrl('u'), KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('ine');
  });

  it('never types the letter of a Ctrl or Alt chord, and leaves ↑/↓/Tab/Esc alone', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'a', KEY.ctrl('t'), KEY.ctrl('g'), '\u001Bb', KEY.up, KEY.down, KEY.tab, KEY.shiftTab, 'c');
    await waitForFrame(lastFrame, (f) => line(f) === 'ac');
    burst(stdin, KEY.escape);
    // A lone Esc is held briefly by Ink in case a sequence follows; Enter must still see "ac".
    await press(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('ac');
  });

  it('follows a value set from outside, with the cursor at its end, even mid-burst', async () => {
    const { stdin, lastFrame, onSubmit } = await setup();
    burst(stdin, 'x', KEY.left, KEY.pageUp, '!');
    await waitForFrame(lastFrame, (f) => line(f) === 'recalled!');
    burst(stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('recalled!');
  });

  it('hands the keys it leaves alone to onKey, in order with its edits', async () => {
    // A parent that reads the field's value on Tab sees every edit typed before it, none after.
    let seen: string[] = [];
    let text = '';
    const { stdin, onSubmit } = await setup({
      onChange: (v) => {
        text = v;
      },
      onKey: (_input, key) => {
        if (key.tab) seen = [...seen, text];
      },
    });
    burst(stdin, 'a', KEY.tab, 'b', KEY.tab, KEY.ctrl('t'), 'c', KEY.enter);
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith('abc'));
    expect(seen).toEqual(['a', 'ab']);
  });

  it('drops the keys its gate refuses, and takes the next ones once it opens', async () => {
    let open = false;
    const gate = vi.fn(() => open);
    const { stdin, lastFrame, onSubmit, onChange } = await setup({ gate });
    burst(stdin, 'n', 'o', KEY.enter);
    await press(stdin);
    expect(gate).toHaveBeenCalledTimes(3);
    expect(onChange).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
    open = true;
    burst(stdin, 'o', 'k', KEY.enter);
    expect(onSubmit).toHaveBeenCalledWith('ok');
    await waitForFrame(lastFrame, (f) => line(f) === '');
  });

  it('ignores keys while inactive and shows the placeholder', async () => {
    const { stdin, lastFrame, onSubmit } = await setup({ isActive: false, placeholder: 'type here' });
    expect(line(stripAnsi(lastFrame() ?? ''))).toBe('type here');
    burst(stdin, 'n', 'o', KEY.enter);
    await press(stdin);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).not.toContain('no');
  });
});
