import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetsDir } from '../assets';
import { PathFence } from '../policy/guards/path-guard';
import type { Mode } from '../protocol';
import { readProjectFile } from '../policy/safe-read';

import { INSTRUCTION_FILE, INSTRUCTIONS_CAP } from './instructions';

export { INSTRUCTIONS_CAP } from './instructions';

/** The instruction files read from the project root, in order. */
export const INSTRUCTION_FILES = [INSTRUCTION_FILE] as const;

const MODE_NOTES: Record<Mode, string> = {
  manual: 'manual (every change is approved by a person)',
  'auto-edit': 'auto-edit (file writes inside the project run without asking; commands still ask)',
  plan: 'plan — read-only. Investigate and propose a plan; every change will be blocked',
  auto: 'auto (most calls run without asking; high-risk ones still ask)',
};

let template: string | undefined;

/** The system prompt: how the gate works, which tool fits which job, the mode, and the instruction files. */
export function systemPrompt(options: {
  root: string;
  mode: Mode;
  /** The instruction files, each under its own heading (instructions.ts `instructionsBlock`). */
  instructions?: string;
  subAgent?: { name: string };
  /** The session's feedback for every agent: rejections and saved preferences (session/feedback). */
  context?: string;
}): string {
  template ??= readFileSync(join(assetsDir(), 'system-prompt.md'), 'utf8');
  let text = template.replace('{{root}}', options.root).replace('{{mode}}', MODE_NOTES[options.mode]);
  if (options.subAgent) {
    text += `\nYou are the sub-agent "${options.subAgent.name}". Do only the task you were given, then end with a short report: what you changed, what you ran, what failed.`;
  }
  if (options.instructions?.trim()) text += `\n\n${options.instructions}`;
  if (options.context?.trim()) text += `\n\n${options.context}`;
  return text;
}

/**
 * Reads AGENTS.md at the project root through the path fence, as a regular file only: a symlink
 * that leads out of the project (an outside secret in every request), a fifo or `/dev/zero` (a
 * hung start) is skipped, with the reason given to `onSkip`. More than 64 KB is cut, with a note.
 * Contract: never throws; undefined when there is no usable file.
 */
export function readAgentsMd(root: string, onSkip?: (reason: string) => void): string | undefined {
  let fence: PathFence;
  try {
    fence = new PathFence(root, []);
  } catch {
    return undefined;
  }
  const read = readProjectFile(fence, INSTRUCTION_FILES[0], INSTRUCTIONS_CAP);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused') {
    onSkip?.(`AGENTS.md was not loaded into the system prompt: ${read.reason}.`);
    return undefined;
  }
  if (!read.truncated) return read.text;
  // The cut may split a UTF-8 sequence; the decoder marks that with U+FFFD, which is dropped.
  const text = read.text.replace(/\uFFFD$/, '');
  return `${text}\n\n[AGENTS.md is longer than ${INSTRUCTIONS_CAP / 1024} KB; the rest was left out.]`;
}
