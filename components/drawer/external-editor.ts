import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { useStdin } from 'ink';
import { useCallback } from 'react';

/** Runs the editor in the foreground and returns when it exits. Injected in tests. */
export type SpawnEditor = (command: string, args: string[]) => { status: number | null; error?: Error };

export type ExternalEditResult =
  | { kind: 'changed'; content: string }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string };

/** The real spawn: the editor inherits the terminal; Node's event loop waits for it. */
export const spawnEditorInTerminal: SpawnEditor = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return { status: result.status, error: result.error };
};

/**
 * Opens `$EDITOR` (fallback `vi`) on `content` in a temp file named like `fileName`, with Ink's raw
 * mode paused so the editor owns the keyboard. Contract: never throws; the temp dir is removed.
 */
export function useExternalEditor(
  spawn: SpawnEditor = spawnEditorInTerminal,
  editorVar: string | undefined = process.env.EDITOR,
): (content: string, fileName: string) => ExternalEditResult {
  const { stdin, isRawModeSupported } = useStdin();
  return useCallback(
    (content: string, fileName: string) => {
      const [command = 'vi', ...flags] = (editorVar?.trim() || 'vi').split(/\s+/);
      let dir: string | undefined;
      // The stream itself, not Ink's reference-counted setRawMode: other panes still hold a count.
      const setRaw = (on: boolean) => {
        if (isRawModeSupported) stdin.setRawMode?.(on);
      };
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
    },
    [spawn, editorVar, stdin, isRawModeSupported],
  );
}
