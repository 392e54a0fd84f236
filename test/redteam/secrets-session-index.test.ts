/**
 * Red team, session files: a secret in the person's first prompt must not reach any file under
 * WARDEN_HOME. The prompt record is redacted like the audit; the index entry's title is the
 * same prompt, and was written as it was typed (sessions/index/<id>.json held the token).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testRecorder } from '../helpers/session-recorder';
import { listSessions } from '../../src/session/saved/store-index';
import { allText, filesHolding } from './secrets-home-grep';

const alnum = (n: number): string => 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY'.repeat(4).slice(0, n);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PROMPTS: [string, string, string][] = [
  ['GitHub token', `push with ghp_${alnum(36)} please`, alnum(36)],
  ['token cut by the 60-character title', `${'x'.repeat(40)} ghp_${alnum(36)}`, alnum(14)],
  ['database URL password', 'connect to postgres://app:Hunter2Secret9@db/prod', 'Hunter2Secret9'],
  ['env assignment', 'OPENAI_API_KEY=Zq9Xw8Vv7Uu6Tt5Ss4 is my key', 'Zq9Xw8Vv7Uu6Tt5Ss4'],
];

describe('a secret in the first prompt', () => {
  it.each(PROMPTS)(
    '%s: in no file under WARDEN_HOME; the title keeps the words',
    async (_, prompt, secret) => {
      const home = mkdtempSync(join(tmpdir(), 'warden-rt-index-'));
      dirs.push(home);
      const rec = testRecorder(home);
      rec.journal.prompt(prompt);
      await rec.close();
      expect(filesHolding(home, secret)).toEqual([]);
      expect(allText(home)).toContain('[REDACTED:');
      const [entry] = listSessions(home);
      expect(entry?.title).toContain('[REDACTED:');
      expect(entry?.title.length).toBeLessThanOrEqual(60);
    },
  );

  it('a prompt with nothing secret keeps its title as typed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-rt-index-'));
    dirs.push(home);
    const rec = testRecorder(home, 's2');
    rec.journal.prompt('fix the failing test in src/app.ts');
    await rec.close();
    expect(listSessions(home)[0]?.title).toBe('fix the failing test in src/app.ts');
  });
});
