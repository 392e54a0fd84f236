/**
 * Who may have written warden's own settings files while a call ran. The home guard
 * puts back a change a tool's own process tree made behind the gate; a change nothing the call
 * started could have made — the person's editor, a second warden saving a rule — is the person's,
 * and is kept and read again (a stricter rule counts at once). Throwing that away, as the guard
 * did, lost a deny rule the person had just added.
 */
import { join, relative, sep } from 'node:path';
import type { CoreEvent } from '../protocol';

/** What the guard knows of a call's tool: its kind as the tool declares it, and whether it is an MCP tool. */
export type HomeWriterFacts = {
  kind: 'read' | 'network' | 'write' | 'execute' | 'other';
  mcp: boolean;
  sandboxed: boolean;
  homeInProject: boolean;
};

/**
 * Whether a call runs a process that can write `$WARDEN_HOME`: an MCP server's, or a command outside
 * the sandbox (the sandbox leaves only the project writable, so a command inside it reaches the home
 * only when the home lies in the project). warden's own file tools are fenced to the project and
 * refuse its protected paths; a read writes nothing. Pure.
 */
export function mayWriteHome(f: HomeWriterFacts): boolean {
  if (f.mcp) return true;
  if (f.kind === 'execute') return !f.sandboxed || f.homeInProject;
  return f.kind === 'write' && f.homeInProject;
}

/** Whether `path` is `root` or inside it (segments, not string prefixes). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** What the person is told when their own edit of a settings file was kept and read again. */
export function keptNotice(home: string, files: readonly string[], tool: string): CoreEvent {
  return {
    type: 'notice',
    level: 'warn',
    code: 'settings_reloaded',
    text: `${files.map((f) => join(home, f)).join(', ')} changed while ${tool} ran, which cannot write there: kept as your edit (or another warden's) and read again; a stricter rule counts from the next call.`,
  };
}
