/**
 * Shell-aware redaction: a command line is split into its words with the guard's bash grammar (or,
 * before it loads, the stand-in splitter), each word redacted as the text bash passes on, and the
 * command around a secret kept readable.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { redact, redactCommand, redactedJson } from '../../src/audit/redact';
import { shellGrammarLoaded, shellWords, splitWords } from '../../src/audit/shell-words';
import { loadShellGrammarWords } from '../../src/policy/shell-grammar-words';

beforeAll(async () => {
  await loadShellGrammarWords();
});

const SECRET = 'Tq8Zr2Lw5Xn9Pk3Vb7Hc';

describe('the words of a command line', () => {
  it('loads the guard grammar', () => {
    expect(shellGrammarLoaded()).toBe(true);
  });

  it.each([
    [`printf '%s\\n' 'a b'`, ['printf', '%s\\n', 'a b']],
    [`echo "x \\"y\\"" z`, ['echo', 'x "y"', 'z']],
    [`echo $'tab\\there'`, ['echo', 'tab\there']],
    [`A='1 2' cmd && ls -la`, ['A=1 2', 'cmd', 'ls', '-la']],
  ])('%s', (line, values) => {
    expect(splitWords(line).map((w) => w.value)).toEqual(values);
    // The grammar reports words inside words too (an assignment's value); the outer ones agree.
    const outer = shellWords(line).filter(
      (w, _, all) => !all.some((o) => o !== w && o.start <= w.start && w.end <= o.end),
    );
    expect(outer.map((w) => w.value)).toEqual(values);
  });
});

describe('redactCommand', () => {
  it.each([
    [`printf '%s\\n' 'apiToken = ${SECRET}'`, `printf '%s\\n' 'apiToken = [REDACTED:`],
    [`echo "db_password: ${SECRET}" > notes.txt`, `> notes.txt`],
    [`echo $'secret_key=\\x${SECRET.charCodeAt(0).toString(16)}${SECRET.slice(1)}'`, `echo $'secret_key=`],
    [`echo $'key\\x3d\\x22${SECRET}\\x22' | tee out`, `| tee out`],
    [`curl -H 'X-Api-Key: ${SECRET}' https://api.example.com`, `curl -H 'X-Api-Key: [REDACTED:`],
    [`echo "$(printf '%s' 'auth_token=${SECRET}')" | wc -c`, `echo "$(printf '%s' 'auth_token=[REDACTED:`],
  ])('%s', (command, kept) => {
    const out = redactCommand(command);
    expect(out).not.toContain(SECRET);
    expect(out).toContain(kept);
    expect(redactCommand(out)).toBe(out);
  });

  it('keeps an assignment an assignment', () => {
    expect(redactCommand(`DEPLOY_SECRET='${SECRET}' ./deploy.sh`)).toBe(
      `DEPLOY_SECRET='[REDACTED:generic-api-key]' ./deploy.sh`,
    );
  });

  it('leaves a quoted command with nothing secret as it is', () => {
    for (const command of [
      `git commit -m 'fix: token refresh races the key rotation'`,
      `printf '%s\\n' 'password fields are masked'`,
      `grep -rn "api_key" src/ | head -20`,
    ])
      expect(redactCommand(command)).toBe(command);
  });

  it("reads a word written in pieces (`'a'\\''b'`) as the one word bash passes, not piece by piece", () => {
    // Each piece alone reads as `credentials: new Foo({ profile:`, a value; the word is code.
    const code = `printf '%s\\n' '  credentials: new Ini({ profile: '\\''<YOUR_PROFILE>'\\'' })'`;
    expect(redactCommand(code)).toBe(code);
    const real = `printf '%s\\n' '  credentials: '\\''${SECRET}'\\'''`;
    expect(redactCommand(real)).not.toContain(SECRET);
    // A quote written inside quotes is not part of the user or password of `-u`.
    const example = `printf '%s\\n' 'curl -u '\\''test:test'\\'''`;
    expect(redactCommand(example)).toBe(example);
    expect(redactCommand(`printf '%s\\n' 'curl -u '\\''me:${SECRET}'\\'''`)).not.toContain(SECRET);
  });

  it('is what redact and redactedJson do to a command argument (and only to one)', () => {
    const args = { command: `printf '%s\\n' 'apiToken = ${SECRET}'`, note: `'apiToken = ${SECRET}'` };
    const out = redact(args) as typeof args;
    expect(out.command).toBe(redactCommand(args.command));
    expect(redactedJson(args)).toBe(JSON.stringify(out));
    expect(redactedJson({ command: 'npm test' })).toBe('{"command":"npm test"}');
  });

  it('reads the line with the stand-in splitter as well (before the grammar loads)', () => {
    const line = `printf '%s\\n' 'apiToken = ${SECRET}'`;
    const [, , word] = splitWords(line);
    expect(word?.value).toBe(`apiToken = ${SECRET}`);
    expect(line.slice(word?.start, word?.end)).toBe(`'apiToken = ${SECRET}'`);
  });
});
