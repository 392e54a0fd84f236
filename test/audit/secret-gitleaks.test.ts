/**
 * gitleaks' rule set as data: the file is what the refresh script's translation gives (nothing edited
 * by hand), every expression is shown safe for the backtracking engine, and the rules run as gitleaks
 * runs them — keywords, secret group, entropy floor, allowlists — on bounded windows.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types, shared with scripts/refresh-gitleaks-rules.mjs
import { goToJs, unsafeReason } from '../../scripts/gitleaks-regex.mjs';
import data from '../../src/audit/rules/gitleaks.json';
import { findGitleaks, GITLEAKS_SOURCE, shannonEntropy } from '../../src/audit/secret-gitleaks';
import { redactString } from '../../src/audit/redact';

const translate = goToJs as (src: string) => string;
const unsafe = unsafeReason as (js: string) => string | undefined;

describe('the gitleaks rule data', () => {
  it('names its source and version and holds most of gitleaks rules', () => {
    expect(data.source).toContain('gitleaks');
    expect(GITLEAKS_SOURCE.version).toMatch(/^v8\.\d+\.\d+/);
    expect(GITLEAKS_SOURCE.rules).toBeGreaterThan(200);
    expect(data.leftOut.length).toBeLessThan(10);
  });

  it('is the translation of gitleaks own expressions, each shown safe', () => {
    for (const rule of data.rules) {
      expect(rule.js, rule.id).toBe(translate(rule.regex));
      expect(unsafe(rule.js), rule.id).toBeUndefined();
      for (const list of (rule as { allowlists?: { regexes?: string[]; js?: string[] }[] }).allowlists ?? [])
        expect(list.js).toEqual(list.regexes?.map(translate));
    }
  });
});

describe('the Go to JavaScript translation', () => {
  it.each([
    ['(?i)abc', '[aA][bB][cC]'],
    ['(?i)[a-f0-9]{4}', '[a-fA-F0-9]{4}'],
    ['(?i)x(?-i:Yz)', '[xX](?:Yz)'],
    ['a(?i:b)c', 'a(?:[bB])c'],
    ['(?s:.){0,3}\\z', '(?:[\\s\\S]){0,3}$'],
    ['[[:alnum:]_]', '[a-zA-Z0-9_]'],
    ['(?P<name>x)', '(?<name>x)'],
  ])('%s → %s', (go, js) => {
    expect(translate(go)).toBe(js);
  });

  it('refuses a repeated group that holds an unbounded repeat, and what it cannot read', () => {
    expect(unsafe('(?:a+)+b')).toBeDefined();
    expect(unsafe('(?:[\\r\\n].*){1,5}')).toBeDefined();
    expect(unsafe('(?:ab){3}[a-z]+')).toBeUndefined();
    expect(() => translate('(?=x)')).toThrow();
    expect(() => translate('\\pL')).toThrow();
  });
});

describe('running the rules', () => {
  it('takes the secret group, not the whole match', () => {
    const { hits } = findGitleaks(
      'discord_bot_token = "6b1e9c4f7a2d8e3b5c0f9a6d1e4b7c2f8a3d5e0b9c6f1a4d7e2b8c5f0a3d6e9b"',
    );
    expect(hits).toContainEqual({
      secret: '6b1e9c4f7a2d8e3b5c0f9a6d1e4b7c2f8a3d5e0b9c6f1a4d7e2b8c5f0a3d6e9b',
      rule: 'discord-api-token',
    });
  });

  it('drops a value whose entropy is not above the rule floor', () => {
    expect(shannonEntropy('aaaaaaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
    expect(findGitleaks('api_token = "abababababababab"').hits).toEqual([]);
    expect(findGitleaks('api_token = "Tq8Zr2Lw5Xn9Pk3V"').hits.map((h) => h.rule)).toEqual([
      'generic-api-key',
    ]);
  });

  it('lets go what an allowlist allows, and says so', () => {
    // gitleaks' generic rule allows values of letters only and its stop words.
    const found = findGitleaks('secret_name = "customer_notifications"');
    expect(found.hits).toEqual([]);
    expect(found.allowed.has('customer_notifications')).toBe(true);
  });

  it('runs a rule only near its keyword, also far into a long text', () => {
    const filler = 'lorem ipsum dolor sit amet\n'.repeat(4000);
    const text = `${filler}deploy_secret = "Vb9Rk3Mz7PdWn5Ht8Jq2"\n${filler}`;
    expect(findGitleaks(text).hits.map((h) => h.secret)).toEqual(['Vb9Rk3Mz7PdWn5Ht8Jq2']);
    expect(findGitleaks(filler).hits).toEqual([]);
  });

  it('finds every secret where keywords crowd a long text (windows are capped, not merged without end)', () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `key_${i} = "${(i * 7919).toString(36)}Qx8Lz2Vn6Tb1Kw9"`,
    );
    const found = findGitleaks(lines.join('\n')).hits.map((h) => h.secret);
    expect(found.length).toBe(400);
    const out = redactString(lines.join('\n'));
    for (let i = 0; i < 400; i++) expect(out).not.toContain(`${(i * 7919).toString(36)}Qx8Lz2Vn6Tb1Kw9`);
  });
});
