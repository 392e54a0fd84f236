// edit_file (issue 13 §1): what the model sends for a 3-line fix in a 2,000-line file with edit_file
// and with write_file, and what every request costs (system prompt + tool schemas, as sent) against
// the 6,000-character goal, with each tool's share.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../src/llm/openai-client';
import { applyStringEdits } from '../src/tools/fs/string-edits';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { benchSession } from './agent-common';
import { printRow } from './stats';

const LINES = 2000;
const GOAL = 6000;

/** A 2,000-line source file of ordinary-looking lines (about 60 characters each). */
const file = Array.from(
  { length: LINES },
  (_, i) => `export function step${i}(input: number): number { return input + ${i}; }`,
).join('\n');
// The fix: three lines in the middle, sent with one unchanged line of context on each side.
const lines = file.split('\n');
const oldText = lines.slice(999, 1004).join('\n');
const newText = [
  lines[999],
  ...lines.slice(1000, 1003).map((l) => l.replace('input +', 'input * 2 +')),
  lines[1003],
].join('\n');
const editArgs = { path: 'src/steps.ts', edits: [{ old_string: oldText, new_string: newText }] };
const applied = applyStringEdits(file, editArgs.edits);
if (!applied.ok) throw new Error(applied.error);
const writeArgs = { path: 'src/steps.ts', content: applied.after };
const editChars = JSON.stringify(editArgs).length;
const writeChars = JSON.stringify(writeArgs).length;
printRow('file (chars, lines)', `${file.length}, ${LINES}`);
printRow('3-line fix: edit_file arguments (chars)', String(editChars));
printRow('3-line fix: write_file arguments (chars)', String(writeChars));
printRow('write_file / edit_file', `${(writeChars / editChars).toFixed(0)}×`);

// A typical turn's request: the first one a session sends.
const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-bench-edit-')));
const home = mkdtempSync(join(tmpdir(), 'warden-bench-home-'));
const fake = await startFakeOpenAI([{ text: 'hi' }]);
try {
  const model = createOpenAIClient({ baseUrl: fake.url, apiKey: 'bench', model: 'bench' });
  const session = await benchSession({ root, home }, model, {
    maxStepsPerTurn: 5,
    contextWindowTokens: 100_000,
  });
  await session.run('hello');
  await session.close();
  const body = fake.requests[0]?.body;
  const system = String(body?.messages[0]?.content ?? '').length;
  const tools = body?.tools ?? [];
  const toolChars = JSON.stringify(tools).length;
  printRow('system prompt (chars)', String(system));
  printRow('tool schemas, JSON as sent (chars)', `${toolChars} (${tools.length} tools)`);
  for (const t of tools) printRow(`  ${t.function.name}`, String(JSON.stringify(t).length));
  const total = system + toolChars;
  printRow(
    `system + tools (goal < ${GOAL})`,
    `${total} (${total < GOAL ? 'under' : 'OVER'} by ${Math.abs(GOAL - total)})`,
  );
} finally {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
