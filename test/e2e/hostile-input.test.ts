/**
 * Bounded work on a hostile clone (issue 29 §5), through the real binary: a .gitignore line built to
 * make a backtracking glob explode, next to a file whose name is a long run of `a`, must not stall
 * glob_files (it took 87 s with 60 `a`s, and `@path` completion uses the same matcher). The test's
 * own timeout is what fails without the fix. Likewise a saved prompt of 300 KB without a space,
 * which the tokenizer's byte-pair merge took 105 s over before the first request.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RUN_CHARS, boundedCount } from '../../src/llm/token-count';
import { GitIgnore } from '../../src/tools/fs/gitignore';
import { type FakeOpenAI, lastToolMessage } from '../helpers/fake-openai';
import { fakeModel, headlessWarden, type Places, tempPlaces, useCleanup } from '../helpers/headless-run';

const later = useCleanup();

const HOSTILE = '*a*a*a*a*a*a*a*a*b';
const LONG = 'a'.repeat(60);

const headless = (at: Places, server: FakeOpenAI, args: string[]) => headlessWarden(at, server, args);

function clone() {
  const { root, home } = tempPlaces(later, 'hostile');
  writeFileSync(join(root, '.gitignore'), `${HOSTILE}\nsub/${HOSTILE}/\n`);
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, LONG), 'x\n');
  writeFileSync(join(root, 'sub', LONG), 'y\n');
  writeFileSync(join(root, 'kept.txt'), 'z\n');
  writeFileSync(join(root, 'xaaaaaaaab'), 'ignored\n');
  return { root, home };
}

describe('hostile ignore rules', () => {
  it('GitIgnore keeps git meaning for a backtracking bomb, a negation and plain rules', () => {
    const ignore = new GitIgnore();
    ignore.add('', `${HOSTILE}\n!keep-ab\n`);
    // Short enough that a backtracking matcher ends too: this case checks the meaning, the next one the time.
    const long = 'a'.repeat(16);
    expect(ignore.ignores(long, false)).toBe(false);
    expect(ignore.ignores(`x/${long}`, false)).toBe(false);
    expect(ignore.ignores('aaaaaaaab', false)).toBe(true);
    expect(ignore.ignores('keep-ab', false)).toBe(false);
    expect(ignore.pruneGlobs()).toEqual([]);
    const plain = new GitIgnore();
    plain.add('', `${HOSTILE}\ndist/\n*.log\n`);
    // Only shapes picomatch cannot backtrack on go to fast-glob's walk.
    expect(plain.pruneGlobs()).toEqual(['**/dist/**', '**/*.log/**']);
  });

  it('glob_files in a clone with a backtracking .gitignore line answers in bounded time (real binary)', {
    timeout: 20_000,
  }, async () => {
    const at = clone();
    const server = await fakeModel(later, [
      { toolCalls: [{ name: 'glob_files', args: { pattern: '**/*' } }] },
      { text: 'Listed.' },
    ]);
    const run = await headless(at, server, ['-p', 'list the files']);
    expect(run.code).toBe(0);
    const listed = lastToolMessage(server.requests.at(-1) as never)?.content ?? '';
    expect(listed).toContain(LONG);
    expect(listed).toContain('kept.txt');
    expect(listed).not.toContain('xaaaaaaaab');
  });
});

describe('token counting on hostile text', () => {
  it('the tokenizer never sees a run without white space longer than the bound; other text goes whole', () => {
    const seen: string[] = [];
    const count = (t: string) => {
      seen.push(t);
      return t.length;
    };
    const text = `start ${'a'.repeat(1000)} end`;
    expect(boundedCount(count, text)).toBe(text.length);
    expect(Math.max(...seen.map((t) => t.length))).toBeLessThanOrEqual(MAX_RUN_CHARS);
    seen.length = 0;
    const prose = 'many short words '.repeat(100);
    boundedCount(count, prose);
    expect(seen).toEqual([prose]);
  });

  it('--continue over a saved 300 KB prompt without spaces reaches the model in bounded time (real binary)', {
    timeout: 30_000,
  }, async () => {
    const { root, home } = tempPlaces(later, 'tok');
    const server = await fakeModel(later, [{ text: 'Noted.' }, { text: 'Answered.' }]);
    expect((await headless({ root, home }, server, ['-p', 'PLACEHOLDER-PROMPT'])).code).toBe(0);
    // The saved session as a long paste would have left it (too long for one command-line argument).
    const dir = join(home, 'sessions');
    const file = readdirSync(dir, { recursive: true })
      .map(String)
      .find((f) => f.endsWith('.jsonl'));
    expect(file).toBeDefined();
    const path = join(dir, file ?? '');
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('PLACEHOLDER-PROMPT', 'a'.repeat(300_000)));
    const run = await headless({ root, home }, server, ['--continue', '-p', 'and now?']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('a'.repeat(1000));
  });
});
