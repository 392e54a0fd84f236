import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ExternalEditResult } from './drawer-state';

/** Runs the editor in the foreground and returns when it exits. Injected in tests. */
export type SpawnEditor = (command: string, args: string[]) => { status: number | null; error?: Error };

/** The real spawn: the editor inherits the terminal; Node's event loop waits for it. */
export const spawnEditorInTerminal: SpawnEditor = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return { status: result.status, error: result.error };
};

/** The terminal the editor takes over: raw mode is switched on the stream itself while it runs. */
export type EditorTerminal = { setRawMode?: (on: boolean) => void };

/**
 * Opens `editorVar` (fallback `vi`) on `content` in a temp file named like `fileName`, with raw
 * mode paused so the editor owns the keyboard. Contract: never throws; the temp dir is removed.
 */
export function editExternally(
  content: string,
  fileName: string,
  options: { spawn?: SpawnEditor; editorVar?: string; terminal: EditorTerminal },
): ExternalEditResult {
  const spawn = options.spawn ?? spawnEditorInTerminal;
  const [command = 'vi', ...flags] = (options.editorVar?.trim() || 'vi').split(/\s+/);
  let dir: string | undefined;
  // The stream itself, not Ink's reference-counted setRawMode: other panes still hold a count.
  const setRaw = (on: boolean) => options.terminal.setRawMode?.(on);
  try {
    dir = mkdtempSync(join(tmpdir(), 'warden-edit-'));
    const file = join(dir, basename(fileName) || 'proposed.txt');
    writeFileSync(file, content);
    setRaw(false);
    let run: ReturnType<SpawnEditor>;
    try {
      run = spawn(command, [...flags, file]);
    } finally {
      setRaw(true);
    }
    if (run.error) return { kind: 'failed', message: `${command}: ${run.error.message}` };
    if (run.status !== 0) return { kind: 'failed', message: `${command} exited with ${run.status}` };
    const edited = readFileSync(file, 'utf8');
    return edited === content ? { kind: 'unchanged' } : { kind: 'changed', content: edited };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
