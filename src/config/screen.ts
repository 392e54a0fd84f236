import { globProblem } from '../policy/bounded-glob';
import type { Mode } from '../protocol';
import { CONFIG_DEFAULTS, type ConfigFile, type SandboxSetting } from './schema';
import { type HooksConfig } from './hooks-schema';

/** A project setting that would loosen the gate, held back until the person trusts the project's files. */
export type HeldSetting = {
  key: 'mode' | 'webSearch' | 'model' | 'maxStepsPerTurn' | 'hooks';
  label: string;
};

/**
 * What a project config file may decide. `untrusted`: what counts before trust (everything that
 * tightens or is neutral). `trusted`: what counts once the person trusted the files. `held`: the
 * difference, for the trust card.
 */
export type ScreenedProject = { untrusted: ConfigFile; trusted: ConfigFile; held: HeldSetting[] };

/**
 * Screens a project's config. Never from a project, trusted or not: `mode: "auto"` (no asking),
 * `sandbox: "off"` and `baseUrl` (where your API key goes). Held until trusted: `mode:
 * "auto-edit"` and `webSearch` (a project could point web_search at a loopback admin service,
 * past the SSRF guard). `protectedPaths` only add to the defaults; a negated or unusable pattern
 * is dropped. MCP servers pass through tagged `project`; the session never starts those by itself.
 * `mine` is the person's own config.json: a project never lowers its sandbox setting nor takes
 * the name of one of its MCP servers (the person's rules for `mcp__<name>__*` would cover the
 * stranger's program), and a mode looser than the person's own (manual over their plan) is held.
 */
export function screenProjectConfig(
  file: ConfigFile,
  path: string,
  warnings: string[],
  mine: ConfigFile = {},
): ScreenedProject {
  const out = { ...file };
  const refuse = (what: string, why: string): void => {
    warnings.push(
      `${path}: ${what} ignored: ${why}; set it in your own config.json, the environment or a flag.`,
    );
  };
  if (out.mode === 'auto') {
    delete out.mode;
    refuse('mode "auto"', 'a project cannot turn off asking');
  }
  if (out.sandbox === 'off') {
    delete out.sandbox;
    refuse('sandbox "off"', 'a project cannot turn off the sandbox');
  }
  if (out.sandbox !== undefined && SANDBOX_RANK[out.sandbox] > SANDBOX_RANK[mine.sandbox ?? 'auto']) {
    refuse(`sandbox "${out.sandbox}"`, `your config.json says "${mine.sandbox}"`);
    delete out.sandbox;
  }
  if (out.mcpServers && mine.mcpServers) {
    const kept = { ...out.mcpServers };
    for (const name of Object.keys(kept)) {
      if (!Object.hasOwn(mine.mcpServers, name)) continue;
      delete kept[name];
      refuse(
        `mcpServers.${name}`,
        'a project cannot replace a server of yours (your rules for its tools would cover it)',
      );
    }
    out.mcpServers = kept;
  }
  if (out.sandboxReadPaths !== undefined) {
    delete out.sandboxReadPaths;
    refuse('sandbox.readPaths', 'a project cannot widen what commands see of this machine');
  }
  if (out.sandboxNetwork !== undefined) {
    delete out.sandboxNetwork;
    refuse('sandbox.network', 'a project cannot let commands reach hosts without your approval');
  }
  if (out.notify !== undefined) {
    delete out.notify;
    refuse('notify', 'a project cannot choose how you are notified or run a program when a card waits');
  }
  if (out.twoPerson !== undefined) {
    delete out.twoPerson;
    refuse('twoPerson', 'a project cannot choose who must approve its cards');
  }
  if (out.audit !== undefined) {
    delete out.audit;
    refuse('audit', 'a project cannot choose where your audit log is sent');
  }
  if (out.approvals !== undefined) {
    delete out.approvals;
    refuse('approvals', 'a project cannot choose what an unattended run does with its cards');
  }
  if (out.baseUrl !== undefined) {
    delete out.baseUrl;
    refuse('baseUrl', 'a project cannot choose where your API key is sent');
  }
  if (out.reviewTurns === false) {
    delete out.reviewTurns;
    refuse('reviewTurns false', 'a project cannot hide what a turn changed');
  }
  if (out.protectedPaths) out.protectedPaths = usablePatterns(out.protectedPaths, path, warnings);

  const untrusted = { ...out };
  const held: HeldSetting[] = [];
  if (out.mode === 'auto-edit') {
    delete untrusted.mode;
    held.push({
      key: 'mode',
      label: 'mode "auto-edit": file writes inside the project would run without asking',
    });
  } else if (out.mode !== undefined && MODE_RANK[out.mode] > MODE_RANK[mine.mode ?? 'manual']) {
    delete untrusted.mode;
    held.push({
      key: 'mode',
      label: `mode "${out.mode}": changes would ask instead of being blocked (your config.json says "${mine.mode}")`,
    });
  }
  // Before trust a repository may not pick the model (what reads your code, what it costs)
  // nor let an agent run longer than you said.
  if (out.model !== undefined && out.model !== mine.model) {
    delete untrusted.model;
    held.push({ key: 'model', label: `model "${out.model}": the project would choose the model` });
  }
  const steps = mine.maxStepsPerTurn ?? CONFIG_DEFAULTS.maxStepsPerTurn;
  if (out.maxStepsPerTurn !== undefined && out.maxStepsPerTurn > steps) {
    delete untrusted.maxStepsPerTurn;
    held.push({
      key: 'maxStepsPerTurn',
      label: `maxStepsPerTurn ${out.maxStepsPerTurn}: an agent could take more steps per turn than your ${steps}`,
    });
  }
  if (out.webSearch !== undefined) {
    delete untrusted.webSearch;
    held.push({
      key: 'webSearch',
      label: `webSearch.url ${out.webSearch.url}: web_search would send queries there`,
    });
  }
  // A hook runs on this machine as the person, outside the sandbox: the classic escape of a planted repository.
  if (out.hooks !== undefined) {
    delete untrusted.hooks;
    held.push(...hookLabels(out.hooks));
  }
  return { untrusted, trusted: out, held };
}

/** What each of a project's hooks would do, one trust-card line per command. */
function hookLabels(hooks: HooksConfig): HeldSetting[] {
  const when: Record<string, string> = {
    PreToolUse: 'before each matching tool call',
    PermissionRequest: 'on each card, and could answer it',
    PostToolUse: 'after each matching tool call',
    Notification: 'when warden notifies you',
    Stop: 'at the end of each turn',
  };
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (entries ?? []).flatMap((entry) =>
      ('hooks' in entry ? entry.hooks : [entry]).map(
        (h): HeldSetting => ({
          key: 'hooks',
          label: `hooks.${event} ${JSON.stringify(h.command)}: would run on your machine, outside the sandbox, ${when[event] ?? ''}`,
        }),
      ),
    ),
  );
}

/** How much each setting lets through; a project's value above the person's own would loosen it. */
const MODE_RANK: Record<Mode, number> = { plan: 0, manual: 1, 'auto-edit': 2, auto: 3 };
const SANDBOX_RANK: Record<SandboxSetting, number> = { require: 0, auto: 1, off: 2 };

/**
 * Protected-path patterns that can only add protection: a leading `!` would read as "un-protect"
 * (or, to the matcher, "everything but"), and an extglob has no linear-time form. Both are dropped.
 */
export function usablePatterns(patterns: readonly string[], path: string, warnings: string[]): string[] {
  const kept: string[] = [];
  for (const [i, pattern] of patterns.entries()) {
    const problem = pattern.startsWith('!') ? 'a file cannot un-protect a path' : globProblem(pattern);
    if (problem)
      warnings.push(`${path}: protectedPaths[${i}] ${JSON.stringify(pattern)} ignored: ${problem}.`);
    else kept.push(pattern);
  }
  return kept;
}
