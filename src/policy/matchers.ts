import { compileBoundedGlob } from './bounded-glob';
import { compileBoundedRegex, type PatternTest } from './bounded-regex';
import type { CallFacts } from './facts';
import { type CommandPattern, commandCoveredBy, commandHitBy, parseCommandPrefix } from './rule-command';
import type { LoadedRule, RuleWhen } from './rules';

export { argvMatchesPrefix, parseCommandPrefix } from './rule-command';

const globCache = new Map<string, PatternTest>();
const regexCache = new Map<string, PatternTest>();
const prefixCache = new Map<string, CommandPattern>();

/**
 * Patterns come from policy files a stranger may have written, so they run on RE2 (linear time);
 * the loader has already refused any that RE2 cannot run. Contract: throws for such a pattern
 * (the gate turns that into a denial), so a rule that slipped past the loader never matches silently.
 */
function regex(pattern: string): PatternTest {
  let test = regexCache.get(pattern);
  if (!test) {
    const compiled = compileBoundedRegex(pattern);
    if (!compiled.ok) throw new Error(`policy regex ${JSON.stringify(pattern)}: ${compiled.error}`);
    test = compiled.test;
    regexCache.set(pattern, test);
  }
  return test;
}

/** A tool or path glob, in linear time (a plain name is a string comparison). Contract: as `regex`. */
function glob(pattern: string): PatternTest {
  let test = globCache.get(pattern);
  if (!test) {
    const compiled = compileBoundedGlob(pattern);
    if (!compiled.ok) throw new Error(`policy glob ${JSON.stringify(pattern)}: ${compiled.error}`);
    test = compiled.test;
    globCache.set(pattern, test);
  }
  return test;
}

/** Whether a rule's tool name or glob (`mcp__github__*`) covers a tool. */
export function toolMatches(pattern: string, tool: string): boolean {
  return glob(pattern)(tool);
}

/** Whether a rule covers a call. An allow rule must cover every part of a compound command. */
export function ruleMatches(rule: LoadedRule, facts: CallFacts): boolean {
  return toolMatches(rule.tool, facts.tool) && argsMatch(rule, facts);
}

/** Whether a rule's argument matchers (`when`) cover a call, its tool aside. */
export function argsMatch(rule: LoadedRule, facts: CallFacts): boolean {
  return rule.when ? whenMatches(rule.when, facts, rule.decision === 'allow') : true;
}

function whenMatches(when: RuleWhen, facts: CallFacts, needAll: boolean): boolean {
  if (when.path !== undefined && !pathMatches(when.path, facts, needAll)) return false;
  if (when.command !== undefined && !commandMatches(when.command, facts, needAll)) return false;
  if (when.domain !== undefined && !domainMatches(when.domain, facts.url)) return false;
  if (when.args) for (const key in when.args) if (facts.args[key] !== when.args[key]) return false;
  if (when.regex) {
    for (const key in when.regex) {
      const value = facts.args[key];
      if (typeof value !== 'string' || !regex(when.regex[key] as string)(value)) return false;
    }
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
  for (const { verdict } of facts.paths) {
    const hit = verdict.ok && test(verdict.relative === '' ? '.' : verdict.relative);
    if (hit !== needAll) return hit;
  }
  return needAll;
}

/** An allow rule must cover every part exactly (see rule-command.ts); ask and deny catch any part. */
function commandMatches(pattern: string, facts: CallFacts, needAll: boolean): boolean {
  let prefix = prefixCache.get(pattern);
  if (!prefix) {
    prefix = parseCommandPrefix(pattern);
    prefixCache.set(pattern, prefix);
  }
  return needAll ? commandCoveredBy(facts.command, prefix) : commandHitBy(facts.command, prefix);
}

/** Whether a URL's host is the domain, or under it for `*.example.com`. */
export function domainMatches(pattern: string, url: string | undefined): boolean {
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
