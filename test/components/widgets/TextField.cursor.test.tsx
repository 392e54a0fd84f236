import { beforeAll, describe, expect, it } from 'vitest';
import { KEY, press, waitForFrame } from '../../helpers/ink';

let render: typeof import('ink-testing-library').render;
let TextField: typeof import('../../../components/widgets/TextField').TextField;

beforeAll(async () => {
  // chalk picks its colour level when first imported; force one so attributes reach the frame.
  process.env.FORCE_COLOR = '3';
  ({ render } = await import('ink-testing-library'));
  ({ TextField } = await import('../../../components/widgets/TextField'));
});

const INVERSE = '\u001B[7m';
const INVERSE_OFF = '\u001B[27m';
const DIM = '\u001B[2m';
/** SGR parameters that set a foreground/background colour. */
const COLOR_SGR = /\u001B\[(?:\d+;)*(?:3\d|4\d|9[0-7]|10[0-7])(?:;\d+)*m/;
/** The frame with the inverse-video cell shown as [x]. */
const marked = (frame: string | undefined) =>
  (frame ?? '').replaceAll(INVERSE, '[').replaceAll(INVERSE_OFF, ']');

function field(value: string, props: { isActive?: boolean; placeholder?: string } = {}) {
  const noop = () => {};
  return render(
    <TextField
      value={value}
      onChange={noop}
      onSubmit={noop}
      isActive={props.isActive ?? true}
      placeholder={props.placeholder}
    />,
  );
}

describe('TextField drawing', () => {
  it('draws the cursor as an inverse cell after the text, and on the character it moves to', async () => {
    const { stdin, lastFrame } = field('abc');
    expect(marked(lastFrame())).toBe('abc[ ]');
    await press(stdin, KEY.left, KEY.left);
    await waitForFrame(() => marked(lastFrame()), 'a[b]c');
    await press(stdin, KEY.home);
    await waitForFrame(() => marked(lastFrame()), '[a]bc');
  });

  it('puts the cursor before a line break as a block, keeping the break', async () => {
    const { stdin, lastFrame } = field('ab\ncd');
    await press(stdin, KEY.left, KEY.left, KEY.left);
    await waitForFrame(() => marked(lastFrame()), 'ab[ ]\ncd');
  });

  it('shows the placeholder dim, with the cursor on its first letter while active', () => {
    expect(marked(field('', { placeholder: 'search' }).lastFrame())).toBe(`[s]${DIM}earch\u001B[22m`);
    const inactive = field('', { placeholder: 'search', isActive: false }).lastFrame() ?? '';
    expect(inactive).toContain(`${DIM}search`);
    expect(inactive).not.toContain(INVERSE);
  });

  it('draws control characters of an outside value as visible stand-ins, never raw', () => {
    // A plan step is model text: an escape sequence in it must not reach the terminal.
    expect(marked(field('a\u001B[2Jb').lastFrame())).toBe('a\u241B[2Jb[ ]');
    expect(field('a\u001B[2Jb\u0007', { isActive: false }).lastFrame()).toBe('a\u241B[2Jb\u2407');
  });

  it('draws no cursor while inactive, and never a colour (readable under NO_COLOR)', () => {
    const frame = field('abc', { isActive: false }).lastFrame() ?? '';
    expect(frame).toBe('abc');
    expect(marked(field('abc').lastFrame())).not.toMatch(COLOR_SGR);
  });
});
