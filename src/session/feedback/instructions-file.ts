/**
 * Where an accepted preference goes: the project's AGENTS.md. Chosen over a `.warden/` file
 * because warden already loads AGENTS.md into every agent's system prompt (main and sub-agents),
 * other coding agents read the same file, and the person reviews and commits it like any other
 * project file; a `.warden/` file would need a new loader and trust rules for text that loosens
 * nothing. The line goes under one heading warden adds once, at the end.
 */
import { join } from 'node:path';
import { INSTRUCTION_FILES } from '../../agent/system-prompt';
import { PathFence } from '../../policy/guards/path-guard';
import { writeFileSafely } from '../../tools/fs/safe-fs';
import { readProjectFile } from '../../policy/safe-read';

export const PREFERENCES_HEADING = '## Preferences (saved by warden with your consent)';
const CAP = 1024 * 1024;

/** The instruction file a preference is written to. */
export function instructionsFile(root: string): string {
  return join(root, INSTRUCTION_FILES[0]);
}

/**
 * Appends `line` to AGENTS.md (created when missing) through the path fence and the safe writer:
 * a file that leads out of the project, is not regular, or is larger than 1 MB is refused.
 * Contract: never rejects; on failure the file is unchanged.
 */
export async function appendInstruction(
  root: string,
  line: string,
): Promise<{ ok: true; file: string } | { ok: false; error: string }> {
  try {
    const fence = new PathFence(root, []);
    const name = INSTRUCTION_FILES[0];
    const verdict = fence.check(name);
    if (!verdict.ok) return { ok: false, error: `${name}: ${verdict.reason}` };
    const read = readProjectFile(fence, name, CAP);
    if (read.kind === 'refused') return { ok: false, error: `${name} was not changed: ${read.reason}.` };
    if (read.kind === 'ok' && read.truncated)
      return { ok: false, error: `${name} is larger than 1 MB; not changed.` };
    const before = read.kind === 'ok' ? read.text : '';
    let text = before;
    if (text && !text.endsWith('\n')) text += '\n';
    if (!text.split('\n').includes(PREFERENCES_HEADING))
      text += `${text ? '\n' : ''}${PREFERENCES_HEADING}\n\n`;
    text += `${line}\n`;
    await writeFileSafely({ path: verdict.path, root: fence.root }, Buffer.from(text, 'utf8'));
    return { ok: true, file: verdict.path };
  } catch (err) {
    return { ok: false, error: `Writing ${INSTRUCTION_FILES[0]} failed: ${(err as Error).message}` };
  }
}
