import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HomeGuard } from '../../src/trust/home-guard';
import { readTrustRecords, recordTrust } from '../../src/config/trust-store';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'warden-homeguard-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const put = (name: string, text: string) => writeFileSync(join(home, name), text);
const read = (name: string) => readFileSync(join(home, name), 'utf8');
const aside = (name: string) => readdirSync(home).filter((f) => f.startsWith(`${name}.rejected-`));

describe('HomeGuard', () => {
  it('nothing changed: nothing to do', () => {
    put('policy.json', '{"rules":[]}');
    expect(new HomeGuard(home).restoreChanged()).toEqual([]);
  });

  it.each([
    ['policy.json', '{"rules":[]}', '{"rules":[{"tool":"*","decision":"allow"}]}'],
    ['config.json', '{"mode":"manual"}', '{"mode":"auto","sandbox":"off"}'],
  ])('%s rewritten during a tool call is put back; the rewrite is kept aside', (name, before, after) => {
    put(name, before);
    const guard = new HomeGuard(home);
    put(name, after);
    expect(guard.restoreChanged()).toEqual([
      { file: name, savedAs: expect.stringContaining(`${name}.rejected-`), restored: true },
    ]);
    expect(read(name)).toBe(before);
    expect(readFileSync(join(home, aside(name)[0] as string), 'utf8')).toBe(after);
    expect(guard.restoreChanged()).toEqual([]);
  });

  it("a forged trust record for a stranger's project is removed (there was none)", () => {
    const guard = new HomeGuard(home);
    recordTrust(home, '/evil/project', 'b'.repeat(64));
    expect(guard.restoreChanged()).toMatchObject([{ file: 'trust.json', restored: true }]);
    expect(readTrustRecords(home)).toEqual({});
  });

  it('a deleted policy comes back', () => {
    put('policy.json', '{"rules":[{"tool":"*","decision":"deny"}]}');
    const guard = new HomeGuard(home);
    unlinkSync(join(home, 'policy.json'));
    expect(guard.restoreChanged()).toEqual([{ file: 'policy.json', restored: true }]);
    expect(read('policy.json')).toContain('deny');
  });

  it("the person's edits between turns and warden's own writes are accepted", () => {
    const guard = new HomeGuard(home);
    put('config.json', '{"model":"mine"}');
    expect(guard.acceptAll()).toEqual(['config.json']);
    guard.accept('trust.json', recordTrust(home, '/p', 'c'.repeat(64)));
    expect(guard.restoreChanged()).toEqual([]);
    expect(existsSync(join(home, 'trust.json'))).toBe(true);
    expect(read('config.json')).toBe('{"model":"mine"}');
  });
});
