import { randomUUID } from 'node:crypto';
import { redactString } from '../audit/redact';
import { picomatchLib } from '../policy/picomatch-lib';
import type { Grant, GrantMatch, GrantScope, Risk } from '../protocol';
import { type CallFacts, protectedPath } from '../policy/facts';
import { domainMatches } from '../policy/matchers';
import { commandCoveredBy, partCoveredBy } from '../policy/rule-command';
import type { PolicyRule } from '../policy/rules';
import { nameLine } from '../text/wrap';
import { planCovers, planKeyOf, planSteps } from './plan-scope';

export type GrantCaller = { agentId: string; agentName: string };

const PLAIN_TOKEN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Whether a call may be covered by any grant at all: never high risk, protected, interactive, or asking for hosts only a person approves. */
export function grantable(facts: CallFacts, risk: Risk): boolean {
  return (
    risk.level !== 'high' &&
    !protectedPath(facts) &&
    !facts.interactive &&
    // Hosts a card names are approved for that run only (resolve.ts).
    (facts.network?.unlisted.length ?? 0) === 0
  );
}

/** The scopes approve-all may offer for a call, most specific first. Computed here, never by the model. */
export function grantOptions(facts: CallFacts, risk: Risk, caller: GrantCaller): GrantScope[] {
  if (!grantable(facts, risk)) return [];
  const options: { tool: string; match: GrantMatch }[] = [];
  const command = facts.command;
  const part = command?.kind === 'ok' && command.parts.length === 1 ? command.parts[0] : undefined;
  if (part) {
    const tokens = part.argv.slice(0, Math.min(2, part.argv.length));
    // Offered only when the grant would cover this very call: plain words, no redirect, no write target.
    // Not when the words hold a secret (`mysql -pX`, a URL's password): the scope is written to
    // the session file token by token, where `-pX` alone reads as no secret, and a saved grant to
    // policy.json (red-team finding). Approve once still is offered.
    const exact =
      tokens.length > 0 &&
      tokens.every((t) => PLAIN_TOKEN.test(t)) &&
      redactString(tokens.join(' ')) === tokens.join(' ') &&
      partCoveredBy(part, { tokens, open: true });
    if (exact) options.push({ tool: facts.tool, match: { kind: 'command_prefix', tokens } });
  }
  const host = facts.url !== undefined ? hostOf(facts.url) : undefined;
  if (host) options.push({ tool: facts.tool, match: { kind: 'domain', domain: host } });
  const firstPath = facts.paths[0]?.verdict;
  if (facts.kind === 'write' && firstPath?.ok) {
    const dir = firstPath.relative.split('/').slice(0, -1).join('/');
    if (dir) options.push({ tool: facts.tool, match: { kind: 'path_glob', glob: `${escapeGlob(dir)}/**` } });
  }
  if (facts.mcpServer)
    options.push(
      { tool: facts.tool, match: { kind: 'tool' } },
      { tool: `mcp__${facts.mcpServer}__*`, match: { kind: 'mcp_server', server: facts.mcpServer } },
    );
  else if (!command || command.kind === 'ok') options.push({ tool: facts.tool, match: { kind: 'tool' } });
  const agents: GrantScope['agents'][] = [
    { kind: 'agent', agentId: caller.agentId, agentName: caller.agentName },
    { kind: 'all' },
  ];
  return options.flatMap((o) => agents.map((a) => describeScope(o.tool, o.match, a)));
}

/**
 * The scopes a plan card may offer: "the plan's known steps", for the proposing agent
 * or all agents, when the plan names at least one exact command or path. The grant lasts until this
 * plan is done or replaced (see `GrantStore`). Never covers high risk, protected paths, deny rules
 * or guards: grants are consulted only after them.
 */
export function planGrantOptions(
  plan: { title: string; steps: readonly string[] },
  caller: GrantCaller,
): GrantScope[] {
  const steps = planSteps(plan.steps);
  if (steps.commands.length === 0 && steps.paths.length === 0) return [];
  const match: GrantMatch = { kind: 'plan_steps', plan: planKeyOf(plan.title, plan.steps), ...steps };
  const agents: GrantScope['agents'][] = [
    { kind: 'agent', agentId: caller.agentId, agentName: caller.agentName },
    { kind: 'all' },
  ];
  return agents.map((a) => describeScope('*', match, a));
}

/** A folder name as a literal glob: `app/[id]` must not also cover `app/i` and `app/d`. */
function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

function describeScope(tool: string, match: GrantMatch, agents: GrantScope['agents']): GrantScope {
  const rule: PolicyRule = { tool, decision: 'allow' };
  let what = `every ${tool} call`;
  if (match.kind === 'path_glob') {
    rule.when = { path: match.glob };
    // A folder name may hold a line break: shown as ␊, the label stays one row that hides nothing.
    what = `${tool} under ${nameLine(match.glob)}`;
  } else if (match.kind === 'command_prefix') {
    rule.when = { command: `${match.tokens.join(' ')} *` };
    what = `${tool} \`${match.tokens.join(' ')} *\``;
  } else if (match.kind === 'mcp_server') {
    what = `every tool of the MCP server ${match.server}`;
  } else if (match.kind === 'domain') {
    rule.when = { domain: match.domain };
    what = `${tool} to ${match.domain}`;
  }
  const who = agents.kind === 'all' ? 'all agents' : `only ${agents.agentName}`;
  if (match.kind === 'plan_steps') {
    const named = [...match.commands.map((c) => `\`${c}\``), ...match.paths];
    const list =
      named.length > 4 ? `${named.slice(0, 4).join(', ')} and ${named.length - 4} more` : named.join(', ');
    // A plan grant is no policy rule: it ends with its plan, so there is nothing to save.
    return {
      tool,
      match,
      agents,
      label: `the plan's known steps (${list}) until it is done, ${who}`,
      ruleText: '',
    };
  }
  return { tool, match, agents, label: `${what}, ${who}`, ruleText: JSON.stringify(rule) };
}

/**
 * Session grants made by approve-all. Contract: `match` never covers a call `grantable` refuses.
 * A plan grant covers calls only while its plan is the current one (`planKey`), and is dropped once
 * that plan was current and no longer is (done or replaced). It is made before its plan is adopted
 * (the plan card's approval runs propose_plan after granting), so until then it waits, covering nothing.
 */
export class GrantStore {
  private grants: Grant[] = [];
  /** Plan grants whose plan has been current at least once. */
  private readonly adopted = new Set<string>();

  /** `planKey`: the key of the plan in force (undefined when there is none or it is done). */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly planKey: () => string | undefined = () => undefined,
  ) {}

  add(scope: GrantScope): Grant {
    const created = this.now();
    const grant: Grant = { ...scope, id: randomUUID(), createdAt: new Date(created).toISOString(), uses: 0 };
    if (scope.minutes) grant.expiresAt = new Date(created + scope.minutes * 60_000).toISOString();
    this.grants.push(grant);
    return grant;
  }

  list(): Grant[] {
    this.dropExpired();
    return [...this.grants];
  }

  get(id: string): Grant | undefined {
    return this.grants.find((g) => g.id === id);
  }

  revoke(id: string): boolean {
    const before = this.grants.length;
    this.grants = this.grants.filter((g) => g.id !== id);
    return this.grants.length < before;
  }

  /** Drops every grant of an MCP server (its config changed or it restarted). */
  dropServer(server: string): void {
    this.grants = this.grants.filter(
      (g) =>
        !(g.match.kind === 'mcp_server' && g.match.server === server) &&
        !g.tool.startsWith(`mcp__${server}__`),
    );
  }

  match(facts: CallFacts, risk: Risk, caller: GrantCaller): Grant | undefined {
    if (!grantable(facts, risk)) return undefined;
    this.dropExpired();
    const plan = this.planKey();
    const grant = this.grants.find(
      (g) => (g.match.kind !== 'plan_steps' || g.match.plan === plan) && scopeCovers(g, facts, caller),
    );
    if (grant) grant.uses += 1;
    return grant;
  }

  /** Whether a plan grant may act now: its plan is the one in force. */
  planActive(grant: Grant): boolean {
    return grant.match.kind !== 'plan_steps' || grant.match.plan === this.planKey();
  }

  /**
   * The plan in force changed (adopted, a step ticked or unticked, replaced, cleared): a plan grant
   * whose plan stopped being current ends now — checked lazily, a plan finished and then put back
   * between two checks (every step ticked, one unticked) kept its grant alive.
   */
  planChanged(): void {
    this.dropExpired();
  }

  private dropExpired(): void {
    const now = this.now();
    const plan = this.planKey();
    this.grants = this.grants.filter((g) => {
      if (g.expiresAt && Date.parse(g.expiresAt) <= now) return false;
      if (g.match.kind !== 'plan_steps') return true;
      if (g.match.plan === plan) this.adopted.add(g.id);
      else if (this.adopted.has(g.id)) return false;
      return true;
    });
  }
}

/** Whether a scope covers a call (ignoring risk, which `match` checks first). */
export function scopeCovers(scope: GrantScope, facts: CallFacts, caller: GrantCaller): boolean {
  if (scope.agents.kind === 'agent' && scope.agents.agentId !== caller.agentId) return false;
  if (!picomatchLib().isMatch(facts.tool, scope.tool)) return false;
  const m = scope.match;
  switch (m.kind) {
    case 'tool':
      return facts.command === undefined || facts.command.kind === 'ok';
    case 'mcp_server':
      return facts.mcpServer === m.server;
    case 'path_glob': {
      const test = picomatchLib()(m.glob, { dot: true });
      return facts.paths.length > 0 && facts.paths.every((p) => p.verdict.ok && test(p.verdict.relative));
    }
    case 'command_prefix':
      // Exactly like an allow rule `<tokens> *`: every part plain, matched, and writing nothing.
      return commandCoveredBy(facts.command, { tokens: m.tokens, open: true });
    case 'domain':
      return facts.url !== undefined && domainMatches(m.domain, facts.url);
    case 'plan_steps':
      return planCovers(m, facts);
  }
}

/** The host a URL names, lower case without a trailing dot; undefined when it does not parse. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}
