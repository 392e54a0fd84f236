/**
 * What a sandboxed command's result tells the model about the boundary it met, so "No such file"
 * and an empty read are not mistaken for the truth about the host or the project:
 * a path outside what commands can see, a masked credential file, a Unix socket refused.
 */
import { relative, resolve } from 'node:path';
import { shownPath } from '../fs/fs-common';
import type { SandboxMask } from './sandbox-paths';
import { type HostView, unseenPaths } from './sandbox-view';

const WORD = /[^\s'"`<>|;&()]+/g;
const SOCKET_WORD = /socket|connect/i;
const NOT_PERMITTED = /Operation not permitted|\bEPERM\b/;
const MAX_LISTED = 5;

/** The notes for one run's result, each one line. Contract: never throws. */
export function viewNotes(
  command: string,
  output: string,
  root: string,
  cwd: string,
  view: HostView,
  masks: readonly SandboxMask[],
): string[] {
  const notes: string[] = [];
  const unseen = unseenPaths(command, view, root);
  if (unseen.length > 0)
    notes.push(
      `${list(unseen)} ${unseen.length === 1 ? 'is' : 'are'} outside what commands can see: the sandbox shows the system folders (/usr, /bin, /lib, /etc, /opt), the project, a private /tmp and a private home, and nothing else of this machine ("No such file or directory"). Ask the person if a command needs it: they can add a folder to "sandbox": {"readPaths": [...]} in their own config.json.`,
    );
  const masked = new Set(masks.map((m) => m.path));
  const named: string[] = [];
  for (const m of command.matchAll(WORD)) {
    const word = m[0].includes('=') ? m[0].slice(m[0].indexOf('=') + 1) : m[0];
    const abs = resolve(cwd, word);
    if (masked.has(abs) && !named.includes(abs)) named.push(abs);
  }
  if (named.length > 0)
    notes.push(
      `${list(named.map((p) => shownPath(relative(root, p))))} ${named.length === 1 ? 'is a credential file, masked' : 'are credential files, masked'} in the sandbox: it reads as empty and cannot be written. Only a run whose card names it and that a person approves can read it.`,
    );
  if (NOT_PERMITTED.test(output) && (SOCKET_WORD.test(output) || SOCKET_WORD.test(command)))
    notes.push(
      'Unix sockets cannot be opened in the sandbox (no SSH agent, database or other service of this machine is reachable through one).',
    );
  return notes;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}
