import picomatch from 'picomatch';
import type { CallFacts } from './facts';
import type { LoadedRule, RuleWhen } from './rules';

const globCache = new Map<string, (s: string) => boolean>();
const regexCache = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    regexCache.set(pattern, re);
  }
  return re;
}
function glob(pattern: string): (s: string) => boolean {
  let test = globCache.get(pattern);
  if (!test) {
    test = picomatch(pattern, { dot: true, nocase: false });
    globCache.set(pattern, test);
  }
  return test;
}

/** Whether a rule covers a call. An allow rule must cover every part of a compound command. */
export function ruleMatches(rule: LoadedRule, facts: CallFacts): boolean {
  if (!glob(rule.tool)(facts.tool)) return false;
  return rule.when ? whenMatches(rule.when, facts, rule.decision === 'allow') : true;
}

function whenMatches(when: RuleWhen, facts: CallFacts, needAll: boolean): boolean {
  if (when.path !== undefined && !pathMatches(when.path, facts, needAll)) return false;
  if (when.command !== undefined && !commandMatches(when.command, facts, needAll)) return false;
  if (when.domain !== undefined && !domainMatches(when.domain, facts.url)) return false;
  for (const [key, value] of Object.entries(when.args ?? {})) if (facts.args[key] !== value) return false;
  for (const [key, pattern] of Object.entries(when.regex ?? {})) {
    const value = facts.args[key];
    if (typeof value !== 'string' || !regex(pattern).test(value)) return false;
  }
  return true;
}

/**
 * The glob (relative to the project, `/`-separated) against the paths the call touches: an allow
 * rule must cover every one of them, an ask or deny rule catches the call when any one matches.
 */
function pathMatches(pattern: string, facts: CallFacts, needAll: boolean): boolean {
  if (facts.paths.length === 0) return false;
  const test = glob(pattern);
  const hit = (p: CallFacts['paths'][number]) => p.verdict.ok && test(p.verdict.relative === '' ? '.' : p.verdict.relative);
  return needAll ? facts.paths.every(hit) : facts.paths.some(hit);
}

/** Splits `git diff *` into the tokens `git diff` and whether more arguments may follow. */
export function parseCommandPrefix(prefix: string): { tokens: string[]; open: boolean } {
  const tokens = prefix.trim().split(/\s+/);
  const open = tokens[tokens.length - 1] === '*';
  return { tokens: open ? tokens.slice(0, -1) : tokens, open };
}

/** Whole-token prefix match of one part's argv. */
export function argvMatchesPrefix(argv: readonly string[], prefix: { tokens: string[]; open: boolean }): boolean {
  if (argv.length < prefix.tokens.length) return false;
  if (!prefix.open && argv.length !== prefix.tokens.length) return false;
  return prefix.tokens.every((t, i) => t === argv[i]);
}

function commandMatches(pattern: string, facts: CallFacts, needAll: boolean): boolean {
  const verdict = facts.command;
  if (!verdict || verdict.parts.length === 0) return false;
  // An allow rule cannot vouch for what the parser could not model.
  if (needAll && verdict.kind !== 'ok') return false;
  const prefix = parseCommandPrefix(pattern);
  const hit = (part: { argv: string[] }) => argvMatchesPrefix(part.argv, prefix);
  return needAll ? verdict.parts.every(hit) : verdict.parts.some(hit);
}

function domainMatches(pattern: string, url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) return host === p.slice(2) || host.endsWith(p.slice(1));
  return host === p;
}
