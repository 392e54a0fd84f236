import type { TrustedValues } from '../config/load';
import type { PolicyContext } from '../policy/resolve';
import type { LoadedRule } from '../policy/rules';
import type { CoreState, Mode } from '../protocol';
import type { SandboxInfo } from '../tools/types';

/** The modes the managed config locks, and its name for messages ("the managed config /etc/warden/config.json"). */
export type ModeLock = { modes: readonly Mode[]; by: string };

/** A setting that changed, for whoever builds on it (the web search tool follows the trusted URL). */
export type SettingsChange = { kind: 'search_url'; url: string | undefined };

/**
 * The one owner of a session's settings: the mode, the rules in force, the sandbox's verdict and the
 * web search URL the trusted project names. Every reader asks it (the gate's policy, the recorder, the
 * turn review, the home guard); it alone writes the state fields the UI shows for them.
 * Contract: never throws; a listener's failure is its own.
 */
export class SessionSettings {
  private modeNow: Mode;
  private rulesNow: LoadedRule[] = [];
  private sandboxNow: SandboxInfo;
  private webSearchNow: string | undefined;
  private readonly listeners: ((change: SettingsChange) => void)[] = [];
  private readonly locks: ModeLock | undefined;

  /** `locked`: the modes the managed config forbids, and how a refusal names that file. */
  constructor(
    private readonly state: CoreState,
    start: { mode: Mode; webSearchUrl?: string | undefined; locked?: ModeLock },
  ) {
    this.modeNow = start.mode;
    this.webSearchNow = start.webSearchUrl;
    this.state.mode = start.mode;
    if (start.locked && start.locked.modes.length > 0) {
      this.locks = start.locked;
      this.state.lockedModes = [...start.locked.modes];
    }
    this.sandboxNow = { kind: 'none', reason: 'the sandbox check has not answered yet' };
  }

  /** The mode in force. */
  get mode(): Mode {
    return this.modeNow;
  }

  /** Trust changed the mode, or the start settled it (never to a locked one: see `chooseMode`). */
  setMode(next: Mode): void {
    if (this.locked(next)) return;
    this.modeNow = next;
    this.state.mode = next;
  }

  /** The person asks for a mode (`/mode`, the mode key): why it is refused, or undefined once set. */
  chooseMode(next: Mode): string | undefined {
    if (this.locked(next))
      return `Mode ${next} is locked by ${this.locks?.by ?? 'the managed config'} (lockModes); the mode stays ${this.modeNow}.`;
    this.setMode(next);
    return undefined;
  }

  /** Whether the managed config forbids `mode`. */
  locked(mode: Mode): boolean {
    return this.locks?.modes.includes(mode) === true;
  }

  /** The rules in force (builtin, user, and the project's as far as it is trusted). */
  get rules(): LoadedRule[] {
    return this.rulesNow;
  }

  /** The rules changed (trust answered, a file saved, /policy reload). */
  setRules(next: LoadedRule[]): void {
    this.rulesNow = next;
  }

  /** What the policy judges with: the rules and the mode, now. */
  policy(): PolicyContext {
    return { rules: this.rulesNow, mode: this.modeNow };
  }

  /** The sandbox's verdict (a placeholder saying "not answered yet" until `setSandbox`). */
  get sandbox(): SandboxInfo {
    return this.sandboxNow;
  }

  /** Whether commands run sandboxed now. */
  get sandboxed(): boolean {
    return this.sandboxNow.kind !== 'none';
  }

  /** The probe is put off until the first screen: the state says "checking" until `setSandbox`. */
  checkingSandbox(): void {
    this.state.sandboxChecking = true;
  }

  /** The sandbox probe answered. */
  setSandbox(found: SandboxInfo): void {
    this.sandboxNow = found;
    this.state.sandboxed = found.kind !== 'none';
    delete this.state.sandboxChecking;
  }

  /** Hears the settings that other parts build on; returns nothing to undo (the session lives as long). */
  onChange(listener: (change: SettingsChange) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Trust turned on (`to` = the trusted values) or off: its settings follow, unless the person changed
   * the mode since. Returns the mode it switched to, if it did.
   */
  applyTrust(to: TrustedValues, from: TrustedValues): Mode | undefined {
    let switched: Mode | undefined;
    if (to.mode !== from.mode && this.modeNow === from.mode && !this.locked(to.mode)) {
      this.setMode(to.mode);
      switched = to.mode;
    }
    if (to.webSearch?.url !== from.webSearch?.url) {
      this.webSearchNow = to.webSearch?.url;
      for (const listener of this.listeners) {
        try {
          listener({ kind: 'search_url', url: this.webSearchNow });
        } catch {
          // A listener's failure must not stop the others.
        }
      }
    }
    return switched;
  }
}

/** The notice a mode change gets: what it is now, or why it stayed (`refused`, from `chooseMode`). */
export function modeNotice(refused: string | undefined, mode: Mode): ['info' | 'warn', string] {
  return refused ? ['warn', refused] : ['info', `Mode: ${mode}.`];
}
