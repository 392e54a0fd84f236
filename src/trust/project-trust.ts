import type { CommandFolderRead } from '../policy/read-commands';
import type { TrustedValues } from '../config/load';
import { parseConfigText } from '../config/read-file';
import type { HooksConfig } from '../config/hooks-schema';
import { type HeldSetting, screenProjectConfig } from '../config/screen';
import { type ManagedPolicy, loadPolicyRulesSync } from '../policy/load-policy';
import { type LoadedRule, type PolicyRule, RuleSchema } from '../policy/rules';
import { canonicalJson } from '../text/canonical-json';
import type { CoreEvent, ProjectTrustState } from '../protocol';
import { looseningItems } from './describe';
import { type ProjectSnapshot, readProjectSnapshot } from '../policy/project-files';
import { isTrusted, recordTrust, trustFilePath } from '../config/trust-store';

/** What the session starts with: the files as read once, and whether they were trusted then. */
export type ProjectStart = {
  snapshot: ProjectSnapshot;
  trustedBy?: 'record' | 'flag';
  held: HeldSetting[];
  values: { trusted: TrustedValues; untrusted: TrustedValues };
};

export type ProjectTrustDeps = {
  home: string;
  start: ProjectStart;
  /** The rules in force changed. */
  setRules(rules: LoadedRule[]): void;
  /** Trust turned on (`to` = trusted values) or off; the session keeps a mode the person changed since. */
  applyValues(to: TrustedValues, from: TrustedValues): void;
  /** warden wrote trust.json with this text; the home guard records it as warden's own change. */
  wroteTrust(text: string): void;
  /** The managed policy, loaded with the others at every (re)load. */
  managed?: ManagedPolicy;
  emit(event: CoreEvent): void;
};

/**
 * The project's trust in a session: which of its rules and settings count, the card's state, the
 * person's answer, and a re-check when the files change. Untrusted, a project's ask and deny
 * rules count at once; its allow rules and loosening settings wait for the person.
 * Contract: never throws; a file that breaks mid-session keeps the project's loosening out.
 */
export class ProjectTrust {
  private snapshot: ProjectSnapshot;
  private trustedBy: ProjectTrustState['by'];
  private asking = false;
  private base: LoadedRule[] = [];
  private held: LoadedRule[] = [];
  /** The user's and project's rules the managed config keeps out (`allowManagedRulesOnly`). */
  private ignoredRules: LoadedRule[] = [];
  private settings: HeldSetting[];
  /** The config's held values apply only to the files the session started with (env and flags were merged for those). */
  private configLive = true;
  private startHooks: HooksConfig | undefined;

  constructor(private readonly d: ProjectTrustDeps) {
    this.snapshot = d.start.snapshot;
    this.trustedBy = d.start.trustedBy;
    this.settings = d.start.held;
  }

  /** The first load. Contract: `{ok:false}` for a broken policy file (the session refuses to start). */
  load(): { ok: true; rules: LoadedRule[] } | { ok: false; error: string } {
    const loaded = loadPolicyRulesSync(this.d.home, this.snapshot.root, {
      project: this.snapshot,
      trusted: false,
      ...(this.d.managed ? { managed: this.d.managed } : {}),
    });
    if (!loaded.ok) return loaded;
    this.base = loaded.rules;
    this.held = loaded.held;
    this.ignoredRules = loaded.ignored;
    this.asking = this.state().status === 'untrusted';
    return { ok: true, rules: this.rules() };
  }

  rules(): LoadedRule[] {
    return this.trustedBy ? [...this.base, ...this.held] : this.base;
  }

  /** The user's and the project's rules that do not count: the managed config allows its own only. */
  ignored(): readonly LoadedRule[] {
    return this.ignoredRules;
  }

  state(): ProjectTrustState {
    const items = looseningItems(this.held, this.settings, this.snapshot.config.path, this.snapshot.commands);
    const status = items.length === 0 ? 'none' : this.trustedBy ? 'trusted' : 'untrusted';
    return {
      status,
      asking: status === 'untrusted' && this.asking,
      hash: this.snapshot.hash,
      items,
      ...(this.trustedBy ? { by: this.trustedBy } : {}),
      store: trustFilePath(this.d.home),
    };
  }

  /**
   * The project's custom command files as trust last read them (the text trusted is the text run), and
   * whether they count: only once the project's files are trusted.
   */
  commands(): { read: CommandFolderRead; trusted: boolean } {
    return { read: this.snapshot.commands, trusted: this.trustedBy !== undefined };
  }

  /**
   * The project's hooks as its config said at start, and whether they count: only while its files are
   * trusted and unchanged since start (the files they run were sealed then; a change waits for a restart).
   */
  hooks(): { hooks: HooksConfig | undefined; file: string; counts: boolean } {
    this.startHooks ??= hooksOf(this.d.start.snapshot);
    const counts = this.trustedBy !== undefined && this.configLive && this.snapshot === this.d.start.snapshot;
    return { hooks: this.startHooks, file: this.d.start.snapshot.config.path, counts };
  }

  /** The person's answer to the card that showed `hash`. */
  decide(trust: boolean, hash: string): void {
    this.refresh();
    if (hash !== this.snapshot.hash)
      return this.notice(
        'warn',
        "The project's .warden files changed since the card was shown; look at the new card.",
      );
    if (!trust) {
      this.asking = false;
      this.changed();
      return this.notice(
        'info',
        `The project's loosening rules and settings stay held back (${this.state().items.length}); its ask and deny rules count. /policy lists them.`,
      );
    }
    if (this.state().status !== 'untrusted') return;
    try {
      this.d.wroteTrust(recordTrust(this.d.home, this.snapshot.root, this.snapshot.hash));
    } catch (err) {
      return this.notice(
        'error',
        `Trust could not be recorded in ${trustFilePath(this.d.home)} (${(err as Error).message}); nothing was trusted.`,
      );
    }
    this.setTrusted('person');
    const later = this.configLive
      ? ''
      : ' Settings from the changed config.json apply when warden starts again.';
    this.notice(
      'info',
      `Trusted this project's .warden files as they are now (recorded in ${trustFilePath(this.d.home)}); a change to them needs trust again.${later}`,
    );
  }

  /**
   * Reloads the rules (the user's file too: a saved grant, or the person's edit between turns).
   * When the project's files changed, their ask and deny rules count at once and their loosening
   * waits for trust again (a card). With `ownRule`, warden itself just appended
   * that rule for the person: if that is the whole change and the files were trusted (or loosened
   * nothing), the new content is trusted without asking.
   */
  refresh(ownRule?: PolicyRule): void {
    const next = readProjectSnapshot(this.snapshot.root, this.d.home);
    const changed = next.hash !== this.snapshot.hash;
    const before = {
      snapshot: this.snapshot,
      status: this.state().status,
      rules: [...this.base, ...this.held],
    };
    const loaded = loadPolicyRulesSync(this.d.home, next.root, {
      project: next,
      trusted: false,
      ...(this.d.managed ? { managed: this.d.managed } : {}),
    });
    if (!loaded.ok) {
      if (changed) {
        // Keep the rules that only tighten; nothing from the broken file loosens anything.
        this.snapshot = next;
        this.configLive = false;
        this.base = this.base.filter((r) => r.source !== 'project' || r.decision !== 'allow');
        this.held = [];
        this.setTrusted(undefined);
      }
      return this.notice(
        'error',
        `${loaded.error} — the rules loaded before stay, and nothing from the project loosens the gate until the file is fixed.`,
      );
    }
    this.base = loaded.rules;
    this.held = loaded.held;
    this.ignoredRules = loaded.ignored;
    if (!changed) return this.d.setRules(this.rules());
    this.snapshot = next;
    this.configLive = false;
    this.settings = heldSettings(next);
    const onlyOwn =
      ownRule !== undefined &&
      before.status !== 'untrusted' &&
      sameConfig(before.snapshot, next) &&
      JSON.stringify(before.snapshot.commands) === JSON.stringify(next.commands) &&
      JSON.stringify(before.snapshot.hookFiles) === JSON.stringify(next.hookFiles) &&
      appendedOnly(before.rules, [...loaded.rules, ...loaded.held], ownRule);
    // --trust-project trusted the files as they were at start, not whatever is written to them
    // later (by the model after a card, or by a process the gate cannot fence): only the person's
    // own saved rule carries it over, and nothing is recorded for it.
    const flag = this.trustedBy === 'flag';
    if (isTrusted(this.d.home, next.root, next.hash)) return this.setTrusted('record');
    if (onlyOwn && flag) return this.setTrusted('flag');
    if (onlyOwn && this.state().status !== 'none') {
      try {
        this.d.wroteTrust(recordTrust(this.d.home, next.root, next.hash));
        return this.setTrusted('person');
      } catch {
        // Fall through: the person decides on the card.
      }
    }
    this.setTrusted(undefined);
    this.asking = this.state().status === 'untrusted';
    if (this.asking)
      this.notice(
        'warn',
        `The project's .warden files changed: ${this.state().items.length} loosening rule(s) or setting(s) are held back until you trust them.`,
      );
  }

  private setTrusted(by: ProjectTrustState['by']): void {
    const was = this.trustedBy !== undefined;
    this.trustedBy = by;
    if (by) this.asking = false;
    const now = by !== undefined;
    const { trusted, untrusted } = this.d.start.values;
    if (was !== now && (this.configLive || was)) {
      if (now) this.d.applyValues(trusted, untrusted);
      else this.d.applyValues(untrusted, trusted);
    }
    this.d.setRules(this.rules());
    this.changed();
  }

  private changed(): void {
    this.d.emit({ type: 'trust_changed', trust: this.state() });
  }

  private notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.d.emit({ type: 'notice', level, text });
  }
}

/** The hooks a snapshot's config names (none when it does not parse). */
function hooksOf(snapshot: ProjectSnapshot): HooksConfig | undefined {
  if (snapshot.config.kind !== 'ok') return undefined;
  const parsed = parseConfigText(snapshot.config.path, snapshot.config.text);
  return parsed.kind === 'ok' ? parsed.file.hooks : undefined;
}

/** The config's held settings of a snapshot (for the card), parse problems aside. */
function heldSettings(snapshot: ProjectSnapshot): HeldSetting[] {
  if (snapshot.config.kind !== 'ok') return [];
  const parsed = parseConfigText(snapshot.config.path, snapshot.config.text);
  return parsed.kind === 'ok' ? screenProjectConfig(parsed.file, snapshot.config.path, []).held : [];
}

function sameConfig(a: ProjectSnapshot, b: ProjectSnapshot): boolean {
  return JSON.stringify(a.config) === JSON.stringify(b.config);
}

/** Whether `after` is exactly `before` (as rules) plus `own` at the end of the project's file. */
function appendedOnly(before: readonly LoadedRule[], after: readonly LoadedRule[], own: PolicyRule): boolean {
  // Ids are filled in by position; compare what the file says.
  const text = (rule: PolicyRule) =>
    canonicalJson(rule.id?.match(/^project#\d+$/) ? { ...rule, id: undefined } : rule);
  const project = (rules: readonly LoadedRule[]) =>
    rules.filter((r) => r.source === 'project').map(({ source: _s, file: _f, ...rule }) => text(rule));
  const was = project(before);
  const now = project(after);
  const parsed = RuleSchema.safeParse(own);
  return (
    parsed.success &&
    now.length === was.length + 1 &&
    was.every((r, i) => now[i] === r) &&
    now[now.length - 1] === text(parsed.data)
  );
}
