#!/usr/bin/env node
// Refreshes src/audit/rules/gitleaks.json from gitleaks' own rule set (config/gitleaks.toml, MIT),
// the file gitleaks generates from cmd/generate/config/rules/*.go and runs in CI by default.
//
//   node scripts/refresh-gitleaks-rules.mjs --repo <gitleaks git dir> [--ref <tag or commit>]
//   node scripts/refresh-gitleaks-rules.mjs --toml <path to gitleaks.toml> --version <v> [--commit <sha>]
//   node scripts/refresh-gitleaks-rules.mjs --tag v8.30.1        (downloads the file of that tag)
//
// The TOML is read by a reader of the subset gitleaks generates (tables, arrays of tables, strings,
// numbers, arrays of strings): the project has no TOML dependency, and this one machine-written
// file does not need one. Each expression is kept as gitleaks writes it (`regex`) and as the
// JavaScript the redactor runs (`js`, scripts/gitleaks-regex.mjs: same meaning, shown safe for a
// backtracking engine); a rule whose expression cannot be translated or is not shown safe is left
// out and named. Nothing is edited by hand (src/audit/secret-gitleaks.ts says how it is used).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goToJs, unsafeReason } from './gitleaks-regex.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'audit', 'rules', 'gitleaks.json');

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function source() {
  const repo = arg('repo');
  if (repo) {
    const ref = arg('ref') ?? 'HEAD';
    const git = (...a) => execFileSync('git', ['--git-dir', repo, ...a], { encoding: 'utf8' });
    return {
      text: git('show', `${ref}:config/gitleaks.toml`),
      version: git('describe', '--tags', ref).trim(),
      commit: git('rev-parse', ref).trim(),
    };
  }
  const toml = arg('toml');
  if (toml)
    return { text: readFileSync(toml, 'utf8'), version: arg('version') ?? 'unknown', commit: arg('commit') };
  const tag = arg('tag');
  if (!tag)
    throw new Error('say where the rules come from: --repo, --toml or --tag (see the top of this file)');
  const url = `https://raw.githubusercontent.com/gitleaks/gitleaks/${tag}/config/gitleaks.toml`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { text: await res.text(), version: tag };
}

/** One TOML value starting at `s[i]`: returns [value, next index]. */
function value(s, i) {
  if (s.startsWith("'''", i)) {
    const end = s.indexOf("'''", i + 3);
    return [s.slice(i + 3, end).replace(/^\n/, ''), end + 3];
  }
  if (s[i] === "'") {
    const end = s.indexOf("'", i + 1);
    return [s.slice(i + 1, end), end + 1];
  }
  if (s[i] === '"') {
    let j = i + 1;
    let text = '';
    const escapes = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
    while (s[j] !== '"') {
      if (s[j] === '\\') {
        const e = s[j + 1];
        if (e === 'u') {
          text += String.fromCharCode(Number.parseInt(s.slice(j + 2, j + 6), 16));
          j += 6;
          continue;
        }
        text += escapes[e] ?? e;
        j += 2;
      } else text += s[j++];
    }
    return [text, j + 1];
  }
  if (s[i] === '[') {
    const items = [];
    let j = i + 1;
    for (;;) {
      while (/[\s,]/.test(s[j])) j++;
      if (s[j] === '#') {
        j = s.indexOf('\n', j);
        continue;
      }
      if (s[j] === ']') return [items, j + 1];
      const [item, next] = value(s, j);
      items.push(item);
      j = next;
    }
  }
  const m = /^[^\s,\]#]+/.exec(s.slice(i));
  const raw = m[0];
  return [raw === 'true' ? true : raw === 'false' ? false : Number(raw), i + raw.length];
}

/** gitleaks.toml as `{ allowlist, rules: [{ …, allowlists: [] }] }`. */
function parse(s) {
  const doc = { rules: [] };
  let table = doc;
  let i = 0;
  while (i < s.length) {
    const line = s.slice(i, s.indexOf('\n', i) === -1 ? s.length : s.indexOf('\n', i));
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      i += line.length + 1;
      continue;
    }
    if (trimmed === '[[rules]]') {
      table = { allowlists: [] };
      doc.rules.push(table);
    } else if (trimmed === '[[rules.allowlists]]') {
      table = {};
      doc.rules.at(-1).allowlists.push(table);
    } else if (trimmed === '[allowlist]') {
      table = {};
      doc.allowlist = table;
    } else if (trimmed.startsWith('[')) throw new Error(`unknown table ${trimmed}`);
    else {
      const m = /^\s*([A-Za-z_]+)\s*=\s*/.exec(line);
      if (!m) throw new Error(`cannot read: ${line}`);
      const [v, next] = value(s, i + m[0].length);
      table[m[1]] = v;
      i = next;
      i = s.indexOf('\n', i) === -1 ? s.length : s.indexOf('\n', i) + 1;
      continue;
    }
    i += line.length + 1;
  }
  return doc;
}

/** The JavaScript form of a Go expression, or why there is none. */
function js(pattern) {
  try {
    const out = goToJs(pattern);
    new RegExp(out);
    const unsafe = unsafeReason(out);
    return unsafe ? { error: unsafe } : { js: out };
  } catch (err) {
    return { error: err.message };
  }
}
const compiles = (pattern) => js(pattern).js !== undefined;

const { text, version, commit } = await source();
const doc = parse(text);
const declared = (text.match(/^\[\[rules\]\]$/gm) ?? []).length;
if (doc.rules.length !== declared) throw new Error(`read ${doc.rules.length} rules of ${declared}`);
const left = [];
const rules = [];
for (const r of doc.rules) {
  const patterns = [r.regex, ...r.allowlists.flatMap((a) => a.regexes ?? [])].filter(Boolean);
  const bad = patterns.map(js).find((p) => p.error);
  if (!r.regex || bad) {
    left.push(`${r.id}: ${r.regex ? bad.error : 'matches file paths only'}`);
    continue;
  }
  const rule = {
    id: r.id,
    regex: r.regex,
    js: js(r.regex).js,
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
  };
  if (r.secretGroup) rule.secretGroup = r.secretGroup;
  if (r.entropy) rule.entropy = r.entropy;
  const allowlists = r.allowlists.map((a) => {
    const list = {};
    if (a.condition) list.condition = a.condition;
    if (a.regexTarget) list.regexTarget = a.regexTarget;
    if (a.regexes) {
      list.regexes = a.regexes;
      list.js = a.regexes.map((p) => js(p).js);
    }
    if (a.stopwords) list.stopwords = a.stopwords.map((w) => w.toLowerCase());
    return list;
  });
  if (allowlists.some((a) => a.regexes || a.stopwords))
    rule.allowlists = allowlists.filter((a) => a.regexes || a.stopwords);
  rules.push(rule);
}
const data = {
  source: 'https://github.com/gitleaks/gitleaks config/gitleaks.toml',
  license: 'MIT',
  version,
  ...(commit ? { commit } : {}),
  refreshedBy: 'scripts/refresh-gitleaks-rules.mjs',
  leftOut: left,
  allowlist: {
    regexes: (doc.allowlist?.regexes ?? []).filter(compiles),
    js: (doc.allowlist?.regexes ?? []).filter(compiles).map((p) => js(p).js),
    stopwords: (doc.allowlist?.stopwords ?? []).map((w) => w.toLowerCase()),
  },
  rules,
};
writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
console.log(`${rules.length} rules of gitleaks ${version} written to ${out}; left out: ${left.length}`);
for (const l of left) console.log(`  ${l}`);
