/**
 * Red team (terminal): an approval card must show every character of what runs. warden lays card
 * lines out by its own width table; Ink measures them again (string-width) and cuts what is wider
 * than the box, silently. Where warden counted a wide character as one cell, the tail of each
 * line fell off: `cat ✅✅… ~/.ssh/id_rsa` showed only the ticks, and the card said "all lines
 * shown". These cases hold warden's count to at least Ink's, for every code point and for cards.
 */
import { cleanup } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { charWidth, textWidth } from '../../src/text/width';
import { wrap } from '../../src/text/wrap';
import { commandRequest, renderDrawer } from '../components/drawer/approval-drawer-harness';
import { makeRequest } from '../helpers/fake-core';

afterEach(() => cleanup());

/** Wide per Unicode (East Asian Width W), each a shape a model could pad a command with. */
const WIDE = ['\u2705', '\u231a', '\u2b50', '\u26a1', '\u{1f004}', '\u{17000}', '\ua960', '\ufe50'];

describe('width: never narrower than what Ink measures', () => {
  it('every code point is at least as wide as string-width says', () => {
    const narrower: string[] = [];
    for (let cp = 0x20; cp <= 0x3ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (charWidth(ch) < stringWidth(ch)) narrower.push(cp.toString(16));
    }
    expect(narrower.slice(0, 20)).toEqual([]);
  });

  it.each(WIDE)('a line wrapped around %s fits the width Ink measures', (ch) => {
    const text = `cat ${ch.repeat(70)} ~/.ssh/id_rsa`;
    for (const width of [40, 80, 117]) {
      const lines = wrap(text, width);
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.join('')).toContain('~/.ssh/id_rsa');
      expect(textWidth(lines.join(''))).toBeGreaterThanOrEqual(stringWidth(lines.join('')));
    }
  });
});

/** The command card for `command`, one part, no notes. */
function commandCard(command: string) {
  const base = commandRequest({}, true);
  if (base.preview.kind !== 'command') throw new Error('not a command');
  return { ...base, args: { command }, preview: { ...base.preview, command, parts: [command], notes: [] } };
}

describe('approval cards padded with wide characters show the whole call', () => {
  it.each(WIDE)('command card: the tail after a run of %s is on screen', async (ch) => {
    const d = renderDrawer([commandCard(`cat ${ch.repeat(60)} ~/.ssh/id_rsa`)], { width: 120 });
    const frame = await d.ready('sandboxed ·');
    expect(frame).toContain('~/.ssh/id_rsa');
  });

  it('MCP arguments card: a value padded with ✅ shows its end', async () => {
    const request = makeRequest({
      tool: 'mcp__x__send',
      preview: { kind: 'json' },
      args: { body: `${'\u2705'.repeat(70)} SECRET-TAIL` },
    });
    const d = renderDrawer([request], { width: 120 });
    const frame = await d.ready('MCP server x');
    expect(frame).toContain('SECRET-TAIL');
  });

  it('diff card: a line padded with ✅ past the width shows where it is cut', async () => {
    // Long lines are windowed and scroll sideways by design; the cut must show as `…`, not vanish.
    const after = `const a = "${'\u2705'.repeat(50)}"; exfiltrate();\n`;
    const request = makeRequest({
      preview: { kind: 'diff', path: 'src/a.ts', before: '', after, isNew: true },
      args: { path: 'src/a.ts', content: after },
    });
    const d = renderDrawer([request], { width: 120 });
    const frame = await d.ready('new file');
    const line = frame.split('\n').find((l) => l.includes('const a')) ?? '';
    expect(line.trimEnd().endsWith('…')).toBe(true);
    expect(stringWidth(line.trimEnd())).toBeLessThanOrEqual(120);
  });
});
