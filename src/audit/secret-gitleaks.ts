/**
 * gitleaks' rule set (rules/gitleaks.json: its config/gitleaks.toml, MIT, refreshed by
 * scripts/refresh-gitleaks-rules.mjs, never edited by hand), run the way gitleaks runs it: a rule
 * is tried only where one of its keywords occurs; its secret is the rule's secret group (or the first
 * group that matched); a secret whose Shannon entropy is not above the rule's floor, or that a
 * global or rule allowlist allows (regexes on the secret, the match or the line; stop words), is
 * not one.
 * The expressions come from a file, so each is shown safe before it is run: the refresh script
 * translates gitleaks' Go syntax to JavaScript (scripts/gitleaks-regex.mjs) and admits only those
 * with no repeated group holding an unbounded repeat (a test checks the data file against it), and
 * each runs only on a window of at most BEFORE + AFTER characters around its keyword. RE2
 * (re2-wasm) was measured and refused: 1.8 s to compile the set, and its fixed 16 MB heap runs out.
 * Speed: one scan of every keyword at once (literals only), then each triggered rule runs on the
 * lines around its keyword, never on the whole text.
 */
import data from './rules/gitleaks.json';
import { namesStandIn } from './secret-names';
import { holdsAlphabetRun, isTypedRun } from './secret-typed';

type Allowlist = {
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  js?: string[];
  stopwords?: string[];
};
type RuleData = {
  id: string;
  js: string;
  keywords: string[];
  secretGroup?: number;
  entropy?: number;
  allowlists?: Allowlist[];
};

/** The rule set's provenance, as the refresh script wrote it (for the README and tests). */
export const GITLEAKS_SOURCE: { version: string; commit?: string; rules: number } = {
  version: data.version,
  commit: (data as { commit?: string }).commit,
  rules: data.rules.length,
};

/** A secret a rule found: the text to hide and the rule's id. */
export type GitleaksHit = { secret: string; rule: string };

/**
 * What gitleaks' rules say of a text: the secrets they found, and the tokens a rule matched but an
 * allowlist or stop word let go (a known public key, a documented example) — the redactor's own
 * shapes leave those alone too.
 */
export type GitleaksFindings = {
  hits: GitleaksHit[];
  allowed: ReadonlySet<string>;
  /**
   * Tokens a rule that knows their form (not a generic one) matched and refused for too little
   * entropy (`glc_1111…`): placeholders by the reference's own measure, which the preset keeps too.
   */
  belowFloor: ReadonlySet<string>;
};

type Compiled = {
  id: string;
  /** One of gitleaks' generic rules: they find a secret by the name it is given, not its shape. */
  generic: boolean;
  regex: RegExp;
  secretGroup: number;
  entropy: number;
  allowlists: CompiledAllowlist[];
};
type CompiledAllowlist = { and: boolean; target: string; regex?: RegExp; stopwords: string[] };

const rules: readonly RuleData[] = data.rules as RuleData[];
const compiled = new Map<number, Compiled | null>();

function compileAllowlist(a: Allowlist): CompiledAllowlist {
  return {
    and: a.condition?.toUpperCase() === 'AND',
    target: a.regexTarget ?? 'secret',
    // gitleaks joins an allowlist's regexes with `|` into one expression.
    ...(a.js && a.js.length > 0 ? { regex: new RegExp(a.js.map((r) => `(?:${r})`).join('|')) } : {}),
    stopwords: a.stopwords ?? [],
  };
}

function compiledRule(index: number): Compiled | null {
  let rule = compiled.get(index);
  if (rule === undefined) {
    const r = rules[index] as RuleData;
    try {
      rule = {
        id: r.id,
        generic: r.id.startsWith('generic'),
        regex: new RegExp(r.js, 'g'),
        secretGroup: r.secretGroup ?? 0,
        entropy: r.entropy ?? 0,
        allowlists: (r.allowlists ?? []).map(compileAllowlist),
      };
    } catch {
      // The refresh script leaves out what does not compile; a rule that still fails is skipped.
      rule = null;
    }
    compiled.set(index, rule);
  }
  return rule;
}

let globalAllow: CompiledAllowlist | undefined;

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = [...text].length;
  for (const c of counts.values()) {
    const p = c / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function allows(list: CompiledAllowlist, secret: string, match: string, line: string): boolean {
  const target = list.target === 'match' ? match : list.target === 'line' ? line : secret;
  const lower = secret.toLowerCase();
  const byRegex = list.regex !== undefined && list.regex.test(target);
  const byWord = list.stopwords.some((w) => lower.includes(w));
  if (!list.and) return byRegex || byWord;
  const checks: boolean[] = [];
  if (list.regex) checks.push(byRegex);
  if (list.stopwords.length > 0) checks.push(byWord);
  return checks.length > 0 && checks.every(Boolean);
}

/**
 * Every rule's versioned prefixes: keywords of five characters or more holding a digit
 * (`sk-ant-api03`, `dop_v1_`, `age-secret-key-1`), which name one version of one provider's token.
 */
const prefixKeywords: { keyword: string; rule: string }[] = rules.flatMap((r) =>
  r.id.startsWith('generic')
    ? []
    : r.keywords.filter((k) => k.length >= 5 && /\d/.test(k)).map((keyword) => ({ keyword, rule: r.id })),
);

/**
 * The rules that know the exact form of a token starting as `token` does: those whose versioned
 * prefix is the longest one `token` starts with, in any case (`sk-ant-api03` → `anthropic-api-key`).
 * Empty when no versioned prefix starts it.
 */
export function rulesOfPrefix(token: string): string[] {
  const lower = token.toLowerCase();
  let longest = 0;
  let found: string[] = [];
  for (const p of prefixKeywords) {
    if (p.keyword.length < longest || !lower.startsWith(p.keyword)) continue;
    if (p.keyword.length > longest) found = [];
    longest = p.keyword.length;
    found.push(p.rule);
  }
  return found;
}

/** Keyword (lower case) → the rules it triggers; one expression finds every keyword in one scan. */
const byKeyword = new Map<string, number[]>();
rules.forEach((r, i) => {
  for (const k of r.keywords) byKeyword.set(k, [...(byKeyword.get(k) ?? []), i]);
});
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** The keywords as a trie (`a(?:ccess|pi|uth)|k(?:ey)…`): the engine tries a few letters per position, not every keyword. */
function trieSource(words: readonly string[]): string {
  type Node = { end: boolean; next: Map<string, Node> };
  const root: Node = { end: false, next: new Map() };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      let child = node.next.get(ch);
      if (!child) {
        child = { end: false, next: new Map() };
        node.next.set(ch, child);
      }
      node = child;
    }
    node.end = true;
  }
  const emit = (node: Node): string => {
    const alternatives = [...node.next].map(([ch, child]) => escape(ch) + emit(child));
    if (alternatives.length === 0) return '';
    // Greedy `?` after a whole keyword: the longest keyword at a position wins (`api_key` over `api`).
    const group = alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
    return node.end ? `(?:${group})?` : (group as string);
  };
  return emit(root);
}

/** Literals only (no quantifier but a literal's optional tail): linear in the text. */
const KEYWORDS = new RegExp(trieSource([...byKeyword.keys()]), 'gi');

/**
 * The rules a matched keyword triggers: its own and those of every keyword inside it (the scan takes
 * the longest keyword at a position and goes on after it, so `secret_key` must also trigger `key`'s).
 */
const triggeredBy = new Map<string, number[]>();
for (const k of byKeyword.keys())
  triggeredBy.set(k, [
    ...new Set([...byKeyword].filter(([other]) => k.includes(other)).flatMap(([, rules]) => rules)),
  ]);

/** Matches where any rule's keyword occurs (the redactor's cheap first test; not global, so no state). */
export const GITLEAKS_TRIGGER = new RegExp(KEYWORDS.source, 'i');

/**
 * How far around a keyword a rule is tried: its line and the next one, bounded either way; windows
 * that overlap are merged while the whole stays under MAX_WINDOW (past it a new, overlapping window
 * starts), so no expression ever runs on more than MAX_WINDOW characters.
 */
const BEFORE = 400;
const AFTER = 1200;
const MAX_WINDOW = 4096;

type Window = { start: number; end: number; rules: Set<number> };

function windowsOf(text: string): Window[] {
  const windows: Window[] = [];
  KEYWORDS.lastIndex = 0;
  for (let m = KEYWORDS.exec(text); m !== null; m = KEYWORDS.exec(text)) {
    const at = m.index;
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const start = Math.max(lineStart, at - BEFORE);
    const eol = text.indexOf('\n', at);
    const next = eol === -1 ? -1 : text.indexOf('\n', eol + 1);
    const end = Math.min(next === -1 ? text.length : next, at + AFTER);
    const triggered = triggeredBy.get(m[0].toLowerCase()) ?? [];
    const last = windows[windows.length - 1];
    if (last && start <= last.end && end - last.start <= MAX_WINDOW) {
      last.end = Math.max(last.end, end);
      for (const r of triggered) last.rules.add(r);
    } else windows.push({ start, end, rules: new Set(triggered) });
  }
  return windows;
}

/** What gitleaks' rules say of a text with no keyword of theirs. */
export const NO_FINDINGS: GitleaksFindings = { hits: [], allowed: new Set(), belowFloor: new Set() };

/** The findings of the text being redacted now: the redactor sets them before any of its rules runs. */
let current: GitleaksFindings = NO_FINDINGS;

/** What gitleaks' rules said of the text being redacted (secret-patterns.ts sets it; its rules read it). */
export const currentFindings = (): GitleaksFindings => current;

/** Sets what `currentFindings` returns, for the text about to be redacted. */
export function setCurrentFindings(findings: GitleaksFindings): void {
  current = findings;
}

/**
 * What every match of a generic rule holds: an assignment's operator (`=`, `:`, `>`, `,`, `||`, by
 * their last character), up to five quotes, blanks or `=`, then ten characters of a value (the union
 * of its two value forms, `[\w.=-]` and base64's). Its keywords (`key`, `token`, `api`…) are in
 * most command lines and sources, where this fails for most windows (`API_TOKEN=abc123 npm test`):
 * the generic expression, tried at every position of the window, was most of gitleaks' share of a
 * command's redaction (bench/redact-instructions.bench.ts, one audit record).
 */
const GENERIC_VALUE = /[=>:|,][\x60'"\s=]{0,5}[\w.=+/-]{10}/;

/**
 * The secrets gitleaks' rules find in `text` (each once), and what their allowlists let go; with
 * `asGitleaks`, without warden's stand-ins (standIn: what gitleaks itself reports, for the bench that
 * counts where the peers agree). Contract: never throws; a rule that fails to compile or run is skipped.
 */
export function findGitleaks(text: string, asGitleaks = false): GitleaksFindings {
  const windows = windowsOf(text);
  if (windows.length === 0) return NO_FINDINGS;
  const found = new Map<string, string>();
  const allowed = new Set<string>();
  const belowFloor = new Set<string>();
  for (const w of windows) {
    const part = text.slice(w.start, w.end);
    for (const index of [...w.rules].sort((a, b) => a - b)) {
      const rule = compiledRule(index);
      if (rule && !(rule.generic && !GENERIC_VALUE.test(part)))
        scan(rule, part, { found, allowed, belowFloor, asGitleaks });
    }
  }
  for (const secret of found.keys()) {
    allowed.delete(secret);
    belowFloor.delete(secret);
  }
  return { hits: [...found].map(([secret, rule]) => ({ secret, rule })), allowed, belowFloor };
}

type Verdicts = {
  found: Map<string, string>;
  allowed: Set<string>;
  belowFloor: Set<string>;
  asGitleaks: boolean;
};

function scan(rule: Compiled, part: string, { found, allowed, belowFloor, asGitleaks }: Verdicts): void {
  try {
    rule.regex.lastIndex = 0;
    for (let m = rule.regex.exec(part); m !== null; m = rule.regex.exec(part)) {
      const match = m[0].replace(/^\n+|\n+$/g, '');
      if (match === '') {
        rule.regex.lastIndex++;
        continue;
      }
      const groups = m.slice(1);
      const secret =
        (rule.secretGroup > 0
          ? groups[rule.secretGroup - 1]
          : groups.find((g) => g !== undefined && g !== '')) ?? (groups.length === 0 ? match : undefined);
      if (!secret || found.has(secret)) continue;
      if (rule.entropy > 0 && shannonEntropy(secret) <= rule.entropy) {
        // A generic rule's floor says nothing of a form, only of a value under some name.
        if (!rule.generic) belowFloor.add(secret);
        continue;
      }
      const line = lineAround(part, m.index, m.index + m[0].length);
      globalAllow ??= compileAllowlist(data.allowlist);
      if (
        (!asGitleaks && standIn(rule, secret, match)) ||
        allows(globalAllow, secret, match, line) ||
        rule.allowlists.some((a) => allows(a, secret, match, line))
      ) {
        allowed.add(secret);
        continue;
      }
      found.set(secret, rule.id);
    }
  } catch {
    // A rule that fails on some input is skipped; the others and the redactor's own rules still run.
  }
}

/**
 * What a generic rule (a secret known by the name before it) found under a name that says the value
 * is a stand-in (`fakeToken := "…"`, secret-names.ts), typed along the alphabet (`xoxb-0123456789`,
 * secret-typed.ts), or cut with an ellipsis (`TOKEN=ops_eyJ…...`, an example shortened in docs): the
 * redactor's own name rules leave the first and the last too.
 */
function standIn(rule: Compiled, secret: string, match: string): boolean {
  if (/(?:\.\.\.|…)$/.test(secret)) return true;
  if (!rule.generic) return false;
  if (isTypedRun(secret) || holdsAlphabetRun(secret)) return true;
  const before = match.slice(0, match.indexOf(secret));
  const name = /[\w.-]+(?=[^\w.-]*$)/.exec(before)?.[0];
  return name !== undefined && namesStandIn(name);
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}
