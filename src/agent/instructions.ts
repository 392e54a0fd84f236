/**
 * The instruction files every agent's system prompt carries, as Codex reads them: the person's own
 * `$WARDEN_HOME/AGENTS.md`, then the project's `AGENTS.md` at its root, then the `AGENTS.md` of each
 * folder between the root and the working directory (the nearer, the later: it refines the ones
 * before). Project files are read through the path fence as regular files only (a symlink out of the
 * project, a fifo or `/dev/zero` is skipped with the reason); each is cut at 64 KB and all of them
 * together at 128 KB, with a note where something was left out.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { PathFence } from '../policy/guards/path-guard';
import { readProjectFile, readRegularFile, type SafeRead } from '../policy/safe-read';
import type { InstructionFileInfo } from '../protocol';

/** The instruction file's name, wherever it is read. */
export const INSTRUCTION_FILE = 'AGENTS.md';
/** At most this much of one instruction file goes into every request; more is cut with a note. */
export const INSTRUCTIONS_CAP = 64 * 1024;
/** At most this much of all of them together. */
export const INSTRUCTIONS_TOTAL_CAP = 128 * 1024;

/** One file as it goes into the prompt: its text already cut (with the note) where it was too long. */
export type InstructionFile = InstructionFileInfo & { text: string };

export type Instructions = {
  files: InstructionFile[];
  /** Files that exist but were not read, with why (shown once as a warning). */
  skipped: string[];
};

/**
 * Reads the instruction files for a session in `root`, started in `cwd` (sub-folders of the root on
 * the way to it count; a `cwd` outside the root adds none). Contract: never throws.
 */
export function readInstructions(o: { home: string; root: string; cwd?: string }): Instructions {
  const out: Instructions = { files: [], skipped: [] };
  let total = 0;
  const seen = new Set<string>();
  const take = (read: SafeRead, scope: InstructionFileInfo['scope'], shown: string, folder?: string) => {
    if (read.kind === 'missing') return;
    if (read.kind === 'refused') {
      out.skipped.push(`${shown} was not loaded into the system prompt: ${read.reason}.`);
      return;
    }
    const key = realOr(read.path);
    if (seen.has(key)) return;
    seen.add(key);
    const room = INSTRUCTIONS_TOTAL_CAP - total;
    if (room <= 0) {
      out.skipped.push(
        `${shown} was not loaded: the instruction files before it fill the ${INSTRUCTIONS_TOTAL_CAP / 1024} KB for instructions.`,
      );
      return;
    }
    const over = Buffer.byteLength(read.text) > room;
    const cut = read.truncated || over;
    // The cut may split a UTF-8 sequence; the decoder marks that with U+FFFD, which is dropped.
    let text = over ? Buffer.from(read.text).subarray(0, room).toString('utf8') : read.text;
    if (cut) text = text.replace(/\uFFFD$/, '');
    total += Buffer.byteLength(text);
    if (over)
      text += `\n\n[The rest of ${shown} was left out: the instruction files together take at most ${INSTRUCTIONS_TOTAL_CAP / 1024} KB.]`;
    else if (cut)
      text += `\n\n[${shown} is longer than ${INSTRUCTIONS_CAP / 1024} KB; the rest was left out.]`;
    out.files.push({
      path: read.path,
      scope,
      bytes: Buffer.byteLength(read.text),
      ...(cut ? { truncated: true as const } : {}),
      ...(folder !== undefined ? { folder } : {}),
      text,
    });
  };
  take(
    readRegularFile(join(o.home, INSTRUCTION_FILE), INSTRUCTIONS_CAP),
    'person',
    `$WARDEN_HOME/${INSTRUCTION_FILE}`,
  );
  let fence: PathFence;
  try {
    fence = new PathFence(o.root, []);
  } catch {
    return out;
  }
  take(readProjectFile(fence, INSTRUCTION_FILE, INSTRUCTIONS_CAP), 'project', INSTRUCTION_FILE);
  for (const folder of foldersTo(fence.root, o.cwd === undefined ? undefined : realOr(o.cwd))) {
    const name = `${folder}/${INSTRUCTION_FILE}`;
    take(readProjectFile(fence, name, INSTRUCTIONS_CAP), 'folder', name, folder);
  }
  return out;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `a`, `a/b`, `a/b/c` for a `cwd` of `<root>/a/b/c`; nothing when `cwd` is the root or outside it. */
export function foldersTo(root: string, cwd: string | undefined): string[] {
  if (cwd === undefined) return [];
  const rel = relative(root, cwd);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return [];
  const parts = rel.split(sep).filter(Boolean);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** The files as one block of the system prompt, each under a line saying whose it is and where it applies. */
export function instructionsBlock(files: readonly InstructionFile[]): string | undefined {
  const blocks = files
    .filter((f) => f.text.trim())
    .map((f) => {
      const head =
        f.scope === 'person'
          ? `The person's own instructions (${f.path}), for every project:`
          : f.scope === 'project'
            ? "The project's AGENTS.md:"
            : `The AGENTS.md of ${f.folder}/ (for work under that folder; it refines the ones above):`;
      return `${head}\n${f.text}`;
    });
  return blocks.length ? blocks.join('\n\n') : undefined;
}
