/**
 * Who is deciding, as the audit names them: the OS user, the host and the terminal this process reads
 * from. Read once per process (none of it changes while warden runs).
 */
import { readlinkSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { DecidedBy, DecisionChannel } from '../protocol';

let cached: { user: string; host: string; tty?: string } | undefined;

/** This process's person through `channel`. Contract: never throws (an unknown user is `unknown`). */
export function localIdentity(channel: DecisionChannel): DecidedBy {
  cached ??= readIdentity();
  return { channel, ...cached };
}

function readIdentity(): { user: string; host: string; tty?: string } {
  let user = process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the environment's name stands.
  }
  const tty = ttyName();
  return { user, host: hostname(), ...(tty ? { tty } : {}) };
}

/** The terminal on stdin (`/dev/pts/3`), where Linux says; undefined for a pipe or elsewhere. */
function ttyName(): string | undefined {
  try {
    const target = readlinkSync('/proc/self/fd/0');
    return /^\/dev\/(pts\/\d+|tty\w*)$/.test(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

export { identityLine } from '../text/identity-line';
