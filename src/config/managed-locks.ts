/**
 * What the managed config forbids or overrides in the other layers, said where each is found:
 * a locked mode asked for on the command line or in the environment (a usage error), in the
 * user's file (an error), in a project's (ignored with a warning); and the flags and variables a
 * managed value beats (a warning, so nobody wonders why `--model` did nothing).
 */
import { MODES, type Mode } from '../protocol';
import type { ConfigFile } from './schema';

/** The modes the managed config locks, and its path for messages. */
export type ModeLocks = { modes: readonly Mode[]; path: string };

type Asked = { mode?: Mode };

/**
 * Why the run cannot start with the mode a flag, the environment or the user's file asks for, or
 * undefined. Contract: pure.
 */
export function lockedModeError(
  locks: ModeLocks,
  flags: Asked,
  env: Asked,
  user: ConfigFile,
  userPath: string,
): { error: string; usage?: true } | undefined {
  if (locks.modes.length === 0) return undefined;
  const open = MODES.filter((m) => !locks.modes.includes(m)).join(', ');
  const why = (mode: Mode) =>
    `mode "${mode}" is locked by the managed config ${locks.path} (lockModes); use one of ${open}`;
  if (flags.mode && locks.modes.includes(flags.mode))
    return { error: `--mode ${flags.mode}: ${why(flags.mode)}`, usage: true };
  if (env.mode && locks.modes.includes(env.mode))
    return { error: `WARDEN_MODE=${env.mode}: ${why(env.mode)}`, usage: true };
  if (user.mode && locks.modes.includes(user.mode)) return { error: `${userPath}: ${why(user.mode)}` };
  return undefined;
}

/** A project's config without a mode the managed config locks (said in `warnings`). Contract: pure. */
export function unlockedProject(
  file: ConfigFile,
  path: string,
  locks: ModeLocks,
  warnings: string[],
): ConfigFile {
  if (!file.mode || !locks.modes.includes(file.mode)) return file;
  warnings.push(
    `${path}: mode "${file.mode}" ignored: the managed config ${locks.path} locks it (lockModes).`,
  );
  const { mode: _locked, ...rest } = file;
  return rest;
}

/** The settings flags and variables may set, by where they are set. */
const OVERRIDABLE: readonly { key: 'model' | 'baseUrl'; flag?: string; env: string }[] = [
  { key: 'model', flag: '--model', env: 'WARDEN_MODEL' },
  { key: 'baseUrl', env: 'OPENAI_BASE_URL' },
];

/** One warning per flag or variable whose value a managed one replaces. Contract: pure. */
export function overriddenByManaged(
  managed: ConfigFile,
  path: string,
  flags: { model?: string },
  env: { model?: string; baseUrl?: string },
): string[] {
  const out: string[] = [];
  for (const { key, flag, env: name } of OVERRIDABLE) {
    const value = managed[key];
    if (value === undefined) continue;
    const fromFlag = key === 'model' ? flags.model : undefined;
    const given = fromFlag ?? env[key];
    if (given === undefined || given === value) continue;
    const where = fromFlag !== undefined ? `${flag} ${fromFlag}` : `${name}=${given}`;
    out.push(`${where} ignored: the managed config ${path} sets ${key} ${JSON.stringify(value)}.`);
  }
  return out;
}
