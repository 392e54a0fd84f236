/**
 * `--continue --fork`: a copy of a saved session under a new id, so a person can go on from a
 * conversation another warden holds without the two writing one file (session-lock.ts).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readRegularFile } from '../../policy/safe-read';
import { isSessionId, sessionFile } from './store-index';

/** Session files past this are not copied (as store-read.ts refuses to resume them). */
const FORK_CAP = 256 * 2 ** 20;

/**
 * Copies session `id` to a new id (its header names the new id and when the copy was made) and
 * returns the new id. Contract: throws an Error that says why when the file cannot be read or written.
 */
export function forkSession(home: string, id: string): string {
  if (!isSessionId(id)) throw new Error(`"${id}" is not a session id.`);
  const read = readRegularFile(sessionFile(home, id), FORK_CAP);
  if (read.kind !== 'ok' || read.truncated)
    throw new Error(
      `session ${id} cannot be forked: ${read.kind === 'refused' ? read.reason : 'it cannot be read'}`,
    );
  const cut = read.text.indexOf('\n');
  const meta = JSON.parse(cut < 0 ? read.text : read.text.slice(0, cut)) as Record<string, unknown>;
  const fork = randomUUID();
  const header = JSON.stringify({
    ...meta,
    sessionId: fork,
    forkedFrom: id,
    createdAt: new Date().toISOString(),
  });
  writeFileSync(sessionFile(home, fork), `${header}\n${cut < 0 ? '' : read.text.slice(cut + 1)}`, {
    flag: 'wx',
    mode: 0o600,
  });
  return fork;
}
