/**
 * Redaction of one string: framed secrets (PEM, Bearer, URL credentials) first, then token shapes
 * — our own (secret-shapes.ts) and the maintained preset's (secret-maintained.ts) — then secrets
 * known by their name (secret-named.ts). Each step leaves `[REDACTED:<kind>]` and keeps the text
 * around it readable; later steps skip what is already marked.
 */
import { SECRET_SHAPES, type SecretShape } from './secret-shapes';
import { FRAMED_RULES, URL_USER_RULE } from './secret-framed';
import { findTriggered, MAINTAINED_TRIGGER } from './secret-maintained';
import {
  currentFindings,
  findGitleaks,
  GITLEAKS_TRIGGER,
  type GitleaksFindings,
  rulesOfPrefix,
  setCurrentFindings,
} from './secret-gitleaks';
import { CODE_RULES, XML_RULES } from './secret-code';
import { NAMED_RULES } from './secret-named';
import { SECRET_NAME_HINT } from './secret-names';
import { holdsAlphabetRun } from './secret-typed';
import {
  isPlaceholder,
  isStandIn,
  isXPlaceholder,
  MARK,
  redactedMark,
  type SecretRule,
} from './secret-values';

export { redactedMark } from './secret-values';

/**
 * A token the shapes keep: one gitleaks allows, a placeholder (`ghp_xxxx…`), a stand-in (`…EXAMPLE`)
 * or one holding the alphabet in order where a generator's letters go (`…9abcdefghQw…`: the shapes
 * are looser than any provider's form, secret-typed.ts).
 */
const keptToken = (token: string): boolean =>
  currentFindings().allowed.has(token) || isPlaceholder(token) || isStandIn(token) || holdsAlphabetRun(token);

/**
 * A token written with its secret part masked or cut off, in the same word: `xoxp-5723…-####`,
 * `sk_live_…****`, `ghp_…XXXX`, `ops_eyJ…...`. What a rule matched is the part the writer showed;
 * the secret was never there.
 */
const MASKED_TAIL = /^[-_.:]?(?:#{4}|\*{4}|[xX]{4}|\.{3}|…)/;
const maskedAfter = (text: string, end: number): boolean => MASKED_TAIL.test(text.slice(end, end + 5));

/**
 * Whether gitleaks, the reference, refuses `token` by the versioned prefix it starts with
 * (`sk-ant-api03`; rulesOfPrefix) or by the rule its shape names (`exactForm`: OpenAI's `sk-proj-`,
 * for a token laid out as that form is): none of the rules that know that exact form found it.
 * The shapes here are looser forms kept for prefixes nobody pins down; where one version's form is
 * known (Anthropic's 93 characters then `AA`), that form decides.
 */
function refusedByItsPrefix(token: string, exactForm: SecretShape['exactForm']): boolean {
  if (exactForm && !exactForm.frame.test(token)) return false;
  const rules = exactForm === undefined ? rulesOfPrefix(token) : [exactForm.rule];
  if (rules.length === 0) return false;
  return !currentFindings().hits.some(
    (h) => rules.includes(h.rule) && (h.secret.includes(token) || token.includes(h.secret)),
  );
}

/** A shape as a rule: every match becomes the marker (unless it must hold a digit and does not). */
function shapeRule(shape: SecretShape): SecretRule {
  return {
    trigger: shape.trigger,
    apply: (text) =>
      text.replace(shape.pattern, (m, at: number) =>
        (shape.needsDigit && !/\d/.test(m)) ||
        keptToken(m) ||
        maskedAfter(text, at + m.length) ||
        refusedByItsPrefix(m, shape.exactForm)
          ? m
          : redactedMark(shape.kind),
      ),
  };
}

/** Replaces the spans the maintained rules report, skipping any that hold a marker already. */
const MAINTAINED_RULE: SecretRule = {
  trigger: MAINTAINED_TRIGGER,
  // Applied only where the trigger matched (redactString tests it first).
  apply: (text) => {
    const hits = findTriggered(text).sort((a, b) => a.start - b.start || b.end - a.end);
    if (hits.length === 0) return text;
    let out = '';
    let at = 0;
    for (const hit of hits) {
      if (hit.start < at) continue;
      const token = text.slice(hit.start, hit.end);
      // Run as it ships (its own fixtures hold placeholders it means to find, `tskey-api-AAAA…`),
      // but for `xxxx…`, which gitleaks' examples call no secret.
      if (
        token.includes(MARK) ||
        isXPlaceholder(token) ||
        isStandIn(token) ||
        currentFindings().belowFloor.has(token) ||
        maskedAfter(text, hit.end)
      )
        continue;
      out += text.slice(at, hit.start) + redactedMark(hit.kind);
      at = hit.end;
    }
    return out + text.slice(at);
  },
};

/**
 * Replaces every secret gitleaks' rules found in the text (each everywhere it occurs), longest
 * first. The findings are of the text as it came in (redactOnce); what an earlier rule hid is gone.
 */
const GITLEAKS_RULE: SecretRule = {
  trigger: GITLEAKS_TRIGGER,
  apply: (text) => {
    let out = text;
    const hits = [...currentFindings().hits].sort((a, b) => b.secret.length - a.secret.length);
    for (const hit of hits)
      if (!hit.secret.includes(MARK) && !isStandIn(hit.secret))
        out = out.split(hit.secret).join(redactedMark(hit.rule));
    return out;
  },
};

/**
 * Rules run as one: one scan of their triggers' union rules the whole group out for most text (the
 * shapes' prefixes are in almost no source file), and inside it each rule still tests its own.
 * The union is folded if any trigger is, which only widens it.
 */
function grouped(rules: readonly SecretRule[]): SecretRule {
  const folded = rules.some((r) => r.trigger.flags.includes('i'));
  return {
    trigger: new RegExp(rules.map((r) => `(?:${r.trigger.source})`).join('|'), folded ? 'i' : ''),
    apply: (text) => {
      let out = text;
      for (const rule of rules) if (rule.trigger.test(out)) out = rule.apply(out);
      return out;
    },
  };
}

const RULES: readonly SecretRule[] = [
  grouped(FRAMED_RULES),
  grouped(SECRET_SHAPES.map(shapeRule)),
  MAINTAINED_RULE,
  GITLEAKS_RULE,
  URL_USER_RULE,
  ...XML_RULES,
  ...NAMED_RULES,
  ...CODE_RULES,
];

/** One regular expression that matches where any of `rules`' triggers does (case-sensitive and folded apart). */
function unionOf(rules: readonly SecretRule[]): { test(text: string): boolean } {
  const union = (folded: boolean): RegExp | undefined => {
    const parts = rules.filter((r) => r.trigger.flags.includes('i') === folded);
    if (parts.length === 0) return undefined;
    return new RegExp(parts.map((r) => `(?:${r.trigger.source})`).join('|'), folded ? 'i' : '');
  };
  const exact = union(false);
  const folded = union(true);
  return { test: (text) => exact?.test(text) === true || folded?.test(text) === true };
}

/**
 * One pass that rules out most strings (names, ids, hashes, paths) before any rule runs: the union
 * of every trigger. The rules that redact by name are looked at only in text that could hold such
 * a name (SECRET_NAME_HINT): their triggers (`=`, `":`, `-`) match almost any JSON or command line.
 */
// gitleaks' keywords (`key`, `token`, `api`…) are in most source text: they gate only its own rule.
const TRIGGERS = unionOf(RULES.filter((r) => !r.byName && r !== GITLEAKS_RULE));
const NAME_TRIGGERS = unionOf(RULES.filter((r) => r.byName));

/**
 * Replaces secret-looking substrings of `text` with `[REDACTED:<kind>]`, keeping the command,
 * URL or path around them readable. Contract: never throws; idempotent.
 */
export function redactString(text: string): string {
  const short = text.length <= MEMO_MAX_LENGTH;
  const known = short ? memo.get(text) : recentLong.get(text);
  if (known !== undefined) return known;
  let out = redactOnce(text);
  if (out.includes('\\')) out = redactEscapedLines(out);
  if (short) {
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(text, out);
  } else rememberLong(text, out);
  return out;
}

/** A `\n` or `\r` escape (two characters) not followed by a real line break. */
const ESCAPED_BREAK = /\\[nr](?!\n)/g;

/**
 * JSON text inside a string — a command's `-o json` output, a tool's JSON answer — writes its lines
 * as `\n` escapes, and the rules that find a secret by the line it is on (`password: x`, an `.env`
 * line, a flag) see one long line. Read again with a line break after each such escape, what those
 * rules find there is hidden too, and the breaks are taken out again (with any the text had right
 * after an escape: only in text that held a secret, which is written differently anyway).
 */
function redactEscapedLines(text: string): string {
  ESCAPED_BREAK.lastIndex = 0;
  if (!ESCAPED_BREAK.test(text)) return text;
  // gitleaks' findings of this text are kept, not sought again: its rules read `\n` escapes already.
  const found = currentFindings();
  // Breaking changes only the lines that hold an escape (in source, a few string literals): read
  // alone, broken, and holding nothing, the text as a whole holds nothing new either.
  const escaped = linesWithEscapes(text);
  if (escaped.length < text.length / 2) {
    const part = escaped.replace(ESCAPED_BREAK, '$&\n');
    if (redactOnce(part, found) === part) return text;
  }
  const broken = text.replace(ESCAPED_BREAK, '$&\n');
  const redacted = redactOnce(broken, found);
  return redacted === broken ? text : redacted.replace(/(\\[nr])\n/g, '$1');
}

/** The lines of `text` that hold a `\n` or `\r` escape, joined by line breaks. */
function linesWithEscapes(text: string): string {
  const lines: string[] = [];
  let after = 0;
  ESCAPED_BREAK.lastIndex = 0;
  for (let m = ESCAPED_BREAK.exec(text); m !== null; m = ESCAPED_BREAK.exec(text)) {
    const start = text.lastIndexOf('\n', m.index) + 1;
    const eol = text.indexOf('\n', m.index);
    const end = eol === -1 ? text.length : eol;
    if (start >= after) lines.push(text.slice(start, end));
    after = end;
    ESCAPED_BREAK.lastIndex = end;
  }
  return lines.join('\n');
}

/** Past this many characters redactOnce skips the union of triggers (measured: bench/redact.bench.ts). */
const LONG_TEXT = 4096;

/** Whether any rule could find something in `text` (the one pass every redaction starts with). */
export function mayHoldSecret(text: string): boolean {
  return ownRulesMayApply(text) || GITLEAKS_TRIGGER.test(text);
}

/** Whether any rule but gitleaks' could find something in `text`. */
function ownRulesMayApply(text: string): boolean {
  return TRIGGERS.test(text) || namedMayApply(text);
}

/** Whether a rule that redacts by name could find something in `text`. */
const namedMayApply = (text: string): boolean => SECRET_NAME_HINT.test(text) && NAME_TRIGGERS.test(text);

/** The rules, in order, over `text` (with gitleaks' findings of it, when they are known already). */
function redactOnce(text: string, found?: GitleaksFindings): string {
  // A long text (a file, a command's output) holds some trigger almost always, and every rule tests
  // its own anyway: the unions' passes would be spent for nothing.
  const long = text.length > LONG_TEXT;
  const byShape = long || TRIGGERS.test(text);
  const byName = long || namedMayApply(text);
  // What gitleaks' rules say of the text, found once before any rule runs (one scan of its keywords,
  // none found in most strings): the shapes leave alone a token its allowlists let go (a documented
  // public key), the name rules what its provider rules refused.
  const findings = found ?? findGitleaks(text);
  const byGitleaks = findings.hits.length > 0;
  if (!byShape && !byName && !byGitleaks) return text;
  setCurrentFindings(findings);
  if (!byShape && !byName) return GITLEAKS_RULE.apply(text);
  let out = text;
  // Until a rule rewrites the text, a rule of a group whose union found nothing needs no test of its
  // own (measured: each trigger is a pass over the text; bench/redact-instructions.bench.ts).
  let rewritten = false;
  // Whether `out` may hold a secret name, judged again only after a rule changed it.
  let hintOf: string | undefined;
  let hinted = false;
  for (const rule of RULES) {
    if (rule === GITLEAKS_RULE) {
      // Its findings are known: no pass of its keywords again.
      if (byGitleaks) out = markRewrite(out, rule.apply(out));
      continue;
    }
    if (!rewritten && !(rule.byName ? byName : byShape)) continue;
    if (rule.byName) {
      if (hintOf !== out) {
        hintOf = out;
        hinted = SECRET_NAME_HINT.test(out);
      }
      if (!hinted) continue;
    }
    if (rule.trigger.test(out)) out = markRewrite(out, rule.apply(out));
  }
  return out;

  function markRewrite(before: string, after: string): string {
    if (after !== before) rewritten = true;
    return after;
  }
}

/**
 * Long texts — a file a call read, a command's output — are redacted more than once within a few
 * calls: the audit's preview of a result and the session file's event both read the whole of it.
 * The last few are remembered (bounded by their length, so no big text is kept for long).
 */
const recentLong = new Map<string, string>();
const RECENT_LONG_CHARS = 1 << 21;
const RECENT_LONG_MAX_LENGTH = 1 << 18;
let recentLongChars = 0;

function rememberLong(text: string, out: string): void {
  if (text.length > RECENT_LONG_MAX_LENGTH) return;
  recentLong.set(text, out);
  recentLongChars += text.length;
  for (const [old] of recentLong) {
    if (recentLongChars <= RECENT_LONG_CHARS) break;
    recentLong.delete(old);
    recentLongChars -= old.length;
  }
}

/**
 * Short values repeat on every record (tool and rule names, statuses, paths, the session id), so
 * their redacted form — most often themselves — is remembered; bounded, and only in memory, where
 * the text already is. The rules never change at run time, so a remembered form never goes stale.
 */
const memo = new Map<string, string>();
const MEMO_MAX_LENGTH = 64;
const MEMO_MAX_ENTRIES = 4096;
