import type { ProjectConfigTrust, TrustedValues } from '../config/load';
import { parseConfigText } from '../config/read-file';
import { screenProjectConfig } from '../config/screen';
import { readProjectSnapshot } from '../policy/project-files';
import type { ProjectStart } from './project-trust';
import { isTrusted } from '../config/trust-store';

/** The session's start from the loaded config (the files read once, by `loadConfig`). */
export function startFromConfig(home: string, project: ProjectConfigTrust): ProjectStart {
  const { snapshot, trusted, held, values } = project;
  const by = trusted ? (isTrusted(home, snapshot.root, snapshot.hash) ? 'record' : 'flag') : undefined;
  return { snapshot, held, values, ...(by ? { trustedBy: by } : {}) };
}

/**
 * A start for a session built without `loadConfig` (tests, embedders): the files are read now;
 * the config's held settings are listed on the card, but their values are the caller's own.
 */
export function startWithoutConfig(home: string, root: string, values: TrustedValues): ProjectStart {
  const snapshot = readProjectSnapshot(root, home);
  let held: ProjectStart['held'] = [];
  if (snapshot.config.kind === 'ok') {
    const parsed = parseConfigText(snapshot.config.path, snapshot.config.text);
    if (parsed.kind === 'ok') held = screenProjectConfig(parsed.file, snapshot.config.path, []).held;
  }
  const trusted = isTrusted(home, snapshot.root, snapshot.hash);
  return {
    snapshot,
    held,
    values: { trusted: values, untrusted: values },
    ...(trusted ? { trustedBy: 'record' as const } : {}),
  };
}
