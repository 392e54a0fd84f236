import type { ModelClient } from '../../llm/types';
import type { CoreEvent } from '../../protocol';
import { detectSandbox } from '../../tools/exec/sandbox';
import { MountPointLedger } from '../../tools/exec/sandbox-mount-points';
import type { SandboxInfo } from '../../tools/types';
import type { SessionSettings } from '../session-settings';
import type { SessionState } from '../session-state';

/** The sandbox setting of the config. */
export type SandboxSetting = 'auto' | 'off' | 'require';

/** Probes for the sandbox. Contract: rejects when the config requires a sandbox that is missing. */
export async function pickSandbox(setting: SandboxSetting): Promise<SandboxInfo> {
  // Placeholders a killed warden left in a project (empty `.warden`, `package.json` …) go first.
  new MountPointLedger().sweep();
  if (setting === 'off') return { kind: 'none', reason: 'sandbox is off in the config' };
  const found = await detectSandbox();
  if (setting === 'require' && found.kind === 'none')
    throw new Error(`The config requires a sandbox, but ${found.reason}.`);
  return found;
}

/** The start banner and what it implies, once the sandbox's verdict is known. */
export function announceStart(
  view: SessionState,
  settings: SessionSettings,
  d: { model: ModelClient; endpoint?: string | undefined; root: string; banner?: string | undefined },
): void {
  const { sandbox } = settings;
  view.banner({
    model: d.model.name,
    demo: d.model.demo,
    ...(d.endpoint && !d.model.demo ? { endpoint: d.endpoint } : {}),
    root: d.root,
    mode: settings.mode,
    sandbox: sandbox.kind === 'none' ? { kind: 'off', reason: sandbox.reason } : { kind: 'bubblewrap' },
  });
  if (d.banner) view.notice('info', d.banner);
  if (sandbox.kind === 'none')
    view.notice('warn', `Commands are not sandboxed (${sandbox.reason}); every command will ask.`);
}

/**
 * The probe put off until the app drew its first screen (a bwrap spawn, a few milliseconds of main
 * thread): until it answers the state says "checking" and every call waits for it. Runs once; every
 * caller (the app after its first frame, the gate) shares it. Contract: the promise never rejects.
 */
export function deferredSandboxCheck(d: {
  settings: SessionSettings;
  closed: () => boolean;
  /** What no first screen needs, run with the probe. */
  beforeProbe: () => void;
  announce: () => void;
  emit: (event: CoreEvent) => void;
}): () => Promise<void> {
  let check: Promise<void> | undefined;
  return () =>
    (check ??= Promise.resolve()
      .then(() => {
        // A session closed before its first call starts nothing more.
        if (!d.closed()) d.beforeProbe();
        return pickSandbox('auto');
      })
      .catch(
        (err: Error): SandboxInfo => ({ kind: 'none', reason: `the sandbox check failed: ${err.message}` }),
      )
      .then((found) => {
        d.settings.setSandbox(found);
        // Closed meanwhile (the app ended within the check): its files are shut, nothing more is said.
        if (d.closed()) return;
        d.announce();
        d.emit({ type: 'state_changed' });
      }));
}
