/**
 * The machine's managed folder: `/etc/warden`, where an administrator puts the `config.json` and
 * `policy.json` no user or project file may loosen, and `approvers/NAME.pub` (the keys of the people
 * who may give a second approval). `WARDEN_SYSTEM_DIR` names another folder (tests, a packaged
 * install) — but never replaces a managed policy that is there: see `managedDirProblem`.
 */
import { join, resolve } from 'node:path';
import { pathExists } from './path-exists';

export const DEFAULT_MANAGED_DIR = '/etc/warden';

type Env = Readonly<Record<string, string | undefined>>;

/** `WARDEN_SYSTEM_DIR` when set (absolute), else `/etc/warden`. */
export function managedDir(env: Env = process.env): string {
  const named = env.WARDEN_SYSTEM_DIR?.trim();
  return named ? resolve(named) : DEFAULT_MANAGED_DIR;
}

/** The files of a managed folder. */
export function managedFiles(dir: string): { config: string; policy: string; approvers: string } {
  return {
    config: join(dir, 'config.json'),
    policy: join(dir, 'policy.json'),
    approvers: join(dir, 'approvers'),
  };
}

/**
 * Why the folder `env` names cannot be used, or undefined. `WARDEN_SYSTEM_DIR` pointing elsewhere
 * while `/etc/warden` holds a managed config or policy would let anyone who can set a variable step
 * out of the policy meant for them: warden then refuses to start. `fixed`: the machine's folder
 * (tests name another). Contract: never throws.
 */
export function managedDirProblem(env: Env = process.env, fixed = DEFAULT_MANAGED_DIR): string | undefined {
  const dir = managedDir(env);
  if (dir === fixed) return undefined;
  const files = managedFiles(fixed);
  const present = [files.config, files.policy].filter(pathExists);
  if (present.length === 0) return undefined;
  return `WARDEN_SYSTEM_DIR=${dir} is set, but ${present.join(' and ')} ${present.length > 1 ? 'are' : 'is'} there: the managed policy of this machine cannot be replaced by a variable. Unset WARDEN_SYSTEM_DIR.`;
}
