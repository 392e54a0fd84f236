/**
 * The identity a session's audit lines carry (audit-identity.ts): read once at start (the user, the
 * host, the git remote), with the model as it is when each line is written.
 */
import { hostname, userInfo } from 'node:os';
import packageJson from '../../../package.json' with { type: 'json' };
import type { AuditIdentity } from './audit-identity';
import { gitRemote } from './git-remote';

/** warden's own version, as `warden --version` prints it. */
export const WARDEN_VERSION: string = packageJson.version;

/**
 * The session's identity for a project root and the current model; the same object until the model
 * changes. Contract: never throws (an unknown user is `unknown`).
 */
export function sessionIdentity(root: string, model: () => string | undefined): () => AuditIdentity {
  const remote = gitRemote(root);
  const base = {
    user: osUser(),
    host: hostname(),
    project: { root, ...(remote ? { remote } : {}) },
    wardenVersion: WARDEN_VERSION,
  };
  let last: AuditIdentity | undefined;
  return () => {
    const name = model();
    if (last?.model !== name || !last) last = { ...base, ...(name ? { model: name } : {}) };
    return last;
  };
}

/** The OS user (the passwd name, else USER/LOGNAME, else `unknown`). */
export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  }
}
