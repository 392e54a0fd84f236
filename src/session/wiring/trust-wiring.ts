import { type ManagedSettings, managedName } from '../../config/managed';
import type { PolicyRule } from '../../policy/rules';
import { saveRule } from '../../policy/save-rule';
import type { CoreEvent, Mode } from '../../protocol';
import type { HomeGuard } from '../../trust/home-guard';
import { type ProjectStart, ProjectTrust } from '../../trust/project-trust';
import { startWithoutConfig } from '../../trust/start';
import type { SessionSettings } from '../session-settings';

/**
 * The project's trust in this session: a project's rules count only as far as the person trusts them
 * (src/trust); what trust turns on or off goes to the settings owner, and warden's own write of
 * trust.json is recorded by the home guard (nothing behind the gate rewrites the user's settings).
 */
export function wireTrust(d: {
  home: string;
  root: string;
  /** The project's files as the config loader read them; read here when absent. */
  project?: ProjectStart | undefined;
  mode: Mode;
  webSearchUrl?: string | undefined;
  settings: SessionSettings;
  homeGuard: HomeGuard;
  managed: ManagedSettings;
  emit: (event: CoreEvent) => void;
}): ProjectTrust {
  const { settings, emit } = d;
  return new ProjectTrust({
    home: d.home,
    start: projectStartOf(d),
    setRules: (next) => settings.setRules(next),
    applyValues: (to, from) => {
      // Trust's settings follow, unless the person changed the mode since.
      const switched = settings.applyTrust(to, from);
      if (switched === undefined) return;
      const how = to === d.project?.values.trusted ? 'now trusted' : 'no longer trusted';
      emit({
        type: 'notice',
        level: 'info',
        text: `Mode: ${switched} (from the project's config.json, ${how}).`,
      });
    },
    wroteTrust: (text) => d.homeGuard.accept('trust.json', text),
    managed: { dir: d.managed.dir, rulesOnly: d.managed.rulesOnly },
    emit,
  });
}

/** The project's files as the config loader read them, or read now (a session built without it). */
export function projectStartOf(d: {
  home: string;
  root: string;
  project?: ProjectStart | undefined;
  mode: Mode;
  webSearchUrl?: string | undefined;
}): ProjectStart {
  return (
    d.project ??
    startWithoutConfig(d.home, d.root, {
      mode: d.mode,
      ...(d.webSearchUrl ? { webSearch: { provider: 'searxng', url: d.webSearchUrl } } : {}),
    })
  );
}

/**
 * The one policy-save path (grants, don't ask again, accepted suggestions). With the managed config's
 * `allowManagedRulesOnly` nothing is saved: the rule would not count. Contract: never rejects.
 */
export async function writeRule(
  d: { root: string; home: string; homeGuard: HomeGuard; trust: ProjectTrust; managed: ManagedSettings },
  target: 'project' | 'user',
  rule: PolicyRule,
): Promise<{ ok: true; file: string } | { ok: false; error: string }> {
  if (d.managed.rulesOnly) return { ok: false, error: rulesOnlyRefusal(d.managed) };
  const saved = await saveRule(target === 'project' ? d.root : undefined, d.home, target, rule);
  if (!saved.ok) return saved;
  if (target === 'user') d.homeGuard.acceptFromDisk('policy.json');
  // The project's file changed by exactly the person's rule: trust carries over (see ProjectTrust.refresh).
  d.trust.refresh(target === 'project' ? rule : undefined);
  return saved;
}

/** What saving a rule is told when only the managed rules count. */
export function rulesOnlyRefusal(managed: Pick<ManagedSettings, 'configPath' | 'dir'>): string {
  return `${capitalised(managedName(managed))} allows its own rules only (allowManagedRulesOnly): a rule in your or the project's policy.json would not count, so none was saved.`;
}

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
