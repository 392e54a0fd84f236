/**
 * `/init`: a first AGENTS.md for the project, proposed as a write_file call through the gate as the
 * person — a diff card to approve (unless a rule or the mode allows the write), audited like any other
 * write. An AGENTS.md that exists is never replaced.
 */
import { INSTRUCTION_FILE } from '../agent/instructions';
import type { Gate } from '../gate/gate';
import type { PathFence } from '../policy/guards/path-guard';
import { readProjectFile } from '../policy/safe-read';
import { formatBytes } from '../text/bytes';
import { firstAgentsMd } from './init-instructions';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

/** Proposes the first AGENTS.md and reports what came of it. Contract: never rejects. */
export async function initInstructions(d: {
  gate: Pick<Gate, 'intercept'>;
  fence: PathFence;
  /** The file-writing tool (write_file), as the composition root named it. */
  writeTool: string;
  /** Reads the instruction files again after the write (they count from the next request). */
  reload: () => void;
  notice: Notice;
}): Promise<void> {
  try {
    const existing = readProjectFile(d.fence, INSTRUCTION_FILE, 1);
    if (existing.kind !== 'missing')
      return d.notice(
        'info',
        existing.kind === 'refused'
          ? `${INSTRUCTION_FILE} exists but cannot be read (${existing.reason}); /init writes none.`
          : `${INSTRUCTION_FILE} already exists; /init does not replace it. /memory lists the instruction files in the prompt.`,
      );
    const content = firstAgentsMd(d.fence);
    const id = `init-${Date.now()}`;
    const result = await d.gate.intercept(
      {
        id,
        tool: d.writeTool,
        args: { path: INSTRUCTION_FILE, content },
        why: 'You asked for a first AGENTS.md with /init: what warden found of the project, for you to edit.',
      },
      { agentId: 'user', agentName: 'you', taskId: id, signal: new AbortController().signal },
    );
    if (result.status !== 'executed')
      return d.notice(
        'warn',
        `/init: AGENTS.md was not written (${result.status}${result.reason ? `: ${result.reason}` : ''}).`,
      );
    d.reload();
    d.notice(
      'info',
      `Wrote ${INSTRUCTION_FILE} (${formatBytes(Buffer.byteLength(content))}): every agent reads it from the next request; edit it to say what only you know.`,
    );
  } catch (err) {
    d.notice('error', `/init failed: ${(err as Error).message}`);
  }
}
