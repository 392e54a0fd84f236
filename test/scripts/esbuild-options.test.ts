import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
// @ts-expect-error: a plain .mjs build script without types
import { sharedOptions } from '../../scripts/esbuild-options.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = mkdtempSync(join(tmpdir(), 'warden-esbuild-options-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Bundles `source` as scripts/build.mjs bundles warden, and imports the result. */
async function bundled<T>(name: string, source: string): Promise<T> {
  const outfile = join(out, `${name}.mjs`);
  await build({
    ...sharedOptions(repo),
    stdin: { contents: source, resolveDir: repo, loader: 'js' },
    outfile,
    banner: {},
  });
  return (await import(pathToFileURL(outfile).href)) as T;
}

describe("the bundle's plugins keep behaviour", () => {
  it('string-width built lazily measures as the package does, emoji and graphemes included', async () => {
    const { width } = await bundled<{ width: (s: string) => number }>(
      'width',
      "import stringWidth from 'string-width';\nexport const width = (s) => stringWidth(s);",
    );
    for (const s of [
      'plain',
      '│ · ›',
      '🙂 ok',
      '👨‍👩‍👧',
      '1️⃣',
      '你好',
      'e\u0301',
      '⚠️',
      '\u001b[31mred\u001b[39m',
      '한글',
    ])
      expect(width(s), JSON.stringify(s)).toBe(stringWidth(s));
  });
  it('zod without its other languages still explains a failure in English', async () => {
    const { explain } = await bundled<{ explain: (v: unknown) => string }>(
      'zod',
      "import { z } from 'zod';\nexport const explain = (v) => z.strictObject({ path: z.string() }).safeParse(v).error.message;",
    );
    const schema = z.strictObject({ path: z.string() });
    for (const value of [{ path: 1 }, {}, { path: 'a', extra: true }])
      expect(explain(value)).toBe(schema.safeParse(value).error?.message);
  });
  it('yoga lays out without fetch', async () => {
    const { layout } = await bundled<{ layout: () => Promise<string> }>(
      'ink',
      "import { Box, Text, renderToString } from 'ink';\nimport { jsx } from 'react/jsx-runtime';\nexport const layout = async () => renderToString(jsx(Box, { borderStyle: 'round', width: 4, children: jsx(Text, { children: 'hi' }) }));",
    );
    expect(await layout()).toBe('╭──╮\n│hi│\n╰──╯');
  });
  it("Ink's line caches kept across frames give each frame its own text, clipped lines included", async () => {
    const { frame } = await bundled<{ frame: (text: string, width: number) => string }>(
      'ink-frames',
      "import { Box, Text, renderToString } from 'ink';\nimport { jsx } from 'react/jsx-runtime';\nexport const frame = (text, width) => renderToString(jsx(Box, { width, overflow: 'hidden', children: jsx(Box, { width: 20, flexShrink: 0, children: jsx(Text, { color: 'red', children: text }) }) }));",
    );
    const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
    for (let round = 0; round < 3; round++) {
      expect(plain(frame('hello world', 5))).toBe('hello');
      expect(plain(frame('goodbye', 4))).toBe('good');
      expect(plain(frame('hello world', 11))).toBe('hello world');
    }
  });
  it("a held-back frame is drawn at once when the app asks (a new approval card), not at the end of Ink's window", async () => {
    const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
    // Ink draws no frames at all where it thinks it runs in CI; this test is about its frames.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    type Started = { writes: string[]; show(text: string): void; drawNow(): void; done(): void };
    const { start } = await bundled<{ start: () => Started }>(
      'ink-draw-now',
      "import { render, Text } from 'ink';\nimport { jsx } from 'react/jsx-runtime';\nimport { EventEmitter } from 'node:events';\nexport function start() {\n  const writes = [];\n  const stdout = Object.assign(new EventEmitter(), { columns: 40, rows: 10, write: (s) => { writes.push(s); return true; } });\n  const app = render(jsx(Text, { children: 'first frame' }), { stdout, patchConsole: false, exitOnCtrlC: false });\n  return { writes, show: (t) => app.rerender(jsx(Text, { children: t })), drawNow: () => globalThis.__wardenDrawNow?.(), done: () => app.unmount() };\n}",
    );
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    const app = start();
    try {
      expect(app.writes.join('')).toContain('first frame');
      app.show('the card');
      // Inside Ink's 33 ms window: held back.
      expect(app.writes.join('')).not.toContain('the card');
      app.drawNow();
      expect(app.writes.join('')).toContain('the card');
    } finally {
      app.done();
    }
  });
  it("an off-screen render (the first card's warm-up) does not keep the app's <Static> history from printing", async () => {
    const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    type Started = {
      writes: string[];
      show(items: string[], status: string): void;
      offScreen(): string;
      done(): void;
    };
    const { start } = await bundled<{ start: () => Started }>(
      'ink-static-root',
      "import { render, renderToString, Static, Text } from 'ink';\nimport { jsx, jsxs, Fragment } from 'react/jsx-runtime';\nimport { EventEmitter } from 'node:events';\nconst app = (items, status) => jsxs(Fragment, { children: [jsx(Static, { items, children: (item) => jsx(Text, { children: item }, item) }), jsx(Text, { children: status })] });\nexport function start() {\n  const writes = [];\n  const stdout = Object.assign(new EventEmitter(), { columns: 40, rows: 10, write: (s) => { writes.push(s); return true; } });\n  const ink = render(app(['first entry'], 'idle'), { stdout, patchConsole: false, exitOnCtrlC: false });\n  return { writes, show: (items, status) => ink.rerender(app(items, status)), offScreen: () => renderToString(app(['off-screen entry'], '')), done: () => ink.unmount() };\n}",
    );
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    const app = start();
    try {
      expect(app.offScreen()).toContain('off-screen entry');
      // A frame now, so the next one falls inside Ink's frame window (as a fast answer's frames do):
      // only a <Static> marked dirty on its own root is printed at once.
      app.show(['first entry'], 'working');
      app.show(['first entry', 'the answer'], 'working');
      expect(app.writes.join('')).toContain('the answer');
      expect(app.writes.join('')).not.toContain('off-screen entry');
    } finally {
      app.done();
    }
  });
});
