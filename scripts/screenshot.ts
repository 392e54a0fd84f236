// Renders the README's pictures from the real binary in a pseudo-terminal against the fake model,
// read back cell by cell from a headless xterm: assets/drawer.svg (the approval drawer with a
// side-by-side diff) and assets/diff-folded.svg (a 2,000-line file with three changes, folded, after
// one `]`). Run: npx tsx scripts/screenshot.ts
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { type PtyApp, startWarden } from '../test/helpers/pty';

const COLS = 132;
const ROWS = 40;
const PALETTE = [
  '#1e1e1e',
  '#e06c75',
  '#98c379',
  '#e5c07b',
  '#61afef',
  '#c678dd',
  '#56b6c2',
  '#dcdfe4',
  '#5c6370',
  '#e06c75',
  '#98c379',
  '#e5c07b',
  '#61afef',
  '#c678dd',
  '#56b6c2',
  '#ffffff',
];
const FG = '#dcdfe4';
const BG = '#1e1e1e';

const BEFORE = `/** Greets someone by name. */
export function greet(name) {
  return \`Hello, \${name}!\`;
}

export function shout(text) {
  return text.toUpperCase();
}
`;
const AFTER = `/** Greets someone by name, politely by default. */
export function greet(name, { polite = true } = {}) {
  return polite ? \`Hello, \${name}!\` : \`Hey \${name}\`;
}

export function shout(text) {
  return \`\${text.toUpperCase()}!\`;
}
`;
function svgOf(app: PtyApp): string {
  const buffer = app.term.buffer.active;

  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const color = (isRgb: boolean, isPalette: boolean, value: number, fallback: string) =>
    isRgb ? `#${value.toString(16).padStart(6, '0')}` : isPalette ? (PALETTE[value] ?? fallback) : fallback;
  const cw = 8.4;
  const lh = 18;
  const parts: string[] = [];
  type Style = { fg: string; bg: string; bold: boolean; dim: boolean };
  for (let y = 0; y < ROWS; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    if (!line) continue;
    // Runs of cells in one style become one <text>, which keeps the picture small.
    let run: { x: number; text: string; style: Style } | undefined;
    const flush = () => {
      if (!run) return;
      const { x, text, style } = run;
      if (style.bg !== BG)
        parts.push(
          `<rect x="${(x * cw).toFixed(1)}" y="${y * lh}" width="${(text.length * cw).toFixed(1)}" height="${lh}" fill="${style.bg}"/>`,
        );
      if (text.trim()) {
        const attrs = `${style.bold ? ' font-weight="bold"' : ''}${style.dim ? ' opacity="0.6"' : ''}`;
        parts.push(
          `<text x="${(x * cw).toFixed(1)}" y="${y * lh + 13}" fill="${style.fg}"${attrs} xml:space="preserve" textLength="${(text.length * cw).toFixed(1)}">${esc(text)}</text>`,
        );
      }
      run = undefined;
    };
    for (let x = 0; x < COLS; x++) {
      const cell = line.getCell(x);
      if (!cell) continue;
      const chars = cell.getChars() || ' ';
      let fg = color(cell.isFgRGB(), cell.isFgPalette(), cell.getFgColor(), FG);
      let bg = color(cell.isBgRGB(), cell.isBgPalette(), cell.getBgColor(), BG);
      if (cell.isInverse()) [fg, bg] = [bg, fg];
      const style: Style = { fg, bg, bold: Boolean(cell.isBold()), dim: Boolean(cell.isDim()) };
      const same =
        run &&
        run.style.fg === fg &&
        run.style.bg === bg &&
        run.style.bold === style.bold &&
        run.style.dim === style.dim;
      if (!same) {
        flush();
        run = { x, text: '', style };
      }
      (run as { text: string }).text += chars;
    }
    flush();
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${COLS * cw}" height="${ROWS * lh}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13.5">
  <rect width="100%" height="100%" fill="${BG}"/>
  ${parts.join('\n')}
  </svg>
  `;
  return svg;
}

/** The drawer over a small change: the README's first picture. */
async function drawerScene(): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-shot-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'greet.js'), BEFORE);
  const fake = await startFakeOpenAI([
    {
      text: 'greet() gets a polite option; shout() ends with an exclamation mark.',
      toolCalls: [{ name: 'write_file', args: { path: 'src/greet.js', content: AFTER } }],
    },
  ]);
  const app = startWarden(
    ['--root', root, 'make greet polite'],
    { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'shot', WARDEN_HOME: join(root, '.home') },
    { cols: COLS, rows: ROWS },
  );
  await app.waitFor('Approval needed', 30_000);
  await app.waitUntil(
    (s) => !s.includes('keys paused') && s.includes('polite') && /│ mode manual/.test(s),
    10_000,
    'the card',
  );
  const svg = svgOf(app);
  app.kill();
  await app.exited;
  await fake.close();
  return svg;
}

/** A 2,000-line file with three scattered changes: folded, and `]` on the second change. */
async function foldedScene(): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-shot-')));
  const lines = Array.from({ length: 2000 }, (_, i) => `export const value${i + 1} = ${i + 1};`);
  writeFileSync(join(root, 'big.ts'), `${lines.join('\n')}\n`);
  const after = [...lines];
  after[99] = 'export const value100 = 100 * SCALE;';
  after[999] = 'export const value1000 = 1000; // fixed';
  after[1899] = 'export const total1900 = 1900;';
  const fake = await startFakeOpenAI([
    {
      text: 'Three small fixes in big.ts.',
      toolCalls: [{ name: 'write_file', args: { path: 'big.ts', content: `${after.join('\n')}\n` } }],
    },
  ]);
  const app = startWarden(
    ['--root', root, 'fix big.ts'],
    { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'shot', WARDEN_HOME: join(root, '.home') },
    { cols: COLS, rows: ROWS },
  );
  await app.waitFor('change 1 of 3', 30_000);
  await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
  app.press(']');
  await app.waitFor('change 2 of 3', 10_000);
  const svg = svgOf(app);
  app.kill();
  await app.exited;
  await fake.close();
  return svg;
}

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
for (const [name, scene] of [
  ['drawer.svg', drawerScene],
  ['diff-folded.svg', foldedScene],
] as const) {
  const out = join(assets, name);
  writeFileSync(out, await scene());
  console.log(`wrote ${out}`);
}
