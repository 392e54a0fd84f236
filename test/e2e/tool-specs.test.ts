import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { runWarden } from '../helpers/run-warden';

const warden = runWarden;

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

// The binary loads zod on first use from a side file (issue 16): what it offers the model and what
// it refuses at start-up must be what the sources say.
describe('the bundled binary with zod loaded on first use', () => {
  it('offers the model each tool exactly as the fixture has it, byte for byte', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-specs-proj-'));
    fake = await startFakeOpenAI([{ text: 'done' }]);
    const run = await warden(['--headless', '-p', 'hi', '--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
    });
    expect(run.code).toBe(0);
    const fixture = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'gate', 'fixtures', 'tool-specs.json'), 'utf8'),
    ) as { name: string; description: string; parameters: unknown }[];
    const offered = fake.requests[0]?.body.tools ?? [];
    expect(offered.length).toBeGreaterThan(10);
    for (const tool of offered) {
      const expected = fixture.find((f) => f.name === tool.function.name);
      expect(JSON.stringify(tool.function)).toBe(JSON.stringify(expected));
    }
  });

  it('an OPENAI_BASE_URL that is not an http(s) URL still stops start-up with the same message', async () => {
    const run = await warden(['--headless', '-p', 'hi'], {
      OPENAI_BASE_URL: 'http:example.com',
      OPENAI_API_KEY: 'k',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('OPENAI_BASE_URL: expected an http or https URL, got "http:example.com"');
  });
});
