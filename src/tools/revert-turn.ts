import { z } from 'zod';
import { defineTool } from './types';

const schema = z.strictObject({ turns: z.number().int().min(1).max(50).default(1) });

/** Restores the files of the latest turns; provided by the checkpoint store. */
export type RevertTurns = (turns: number) => Promise<{ restored: string[]; removed: string[]; turns: number }>;

/** `revert_turn`: put back every file the latest turns wrote or created. */
export function createRevertTurnTool(revert: RevertTurns) {
  return defineTool({
    name: 'revert_turn',
    description: 'Undo the file changes of the latest turns (not commands).',
    schema,
    kind: 'write',
    reversible: true,
    async execute(args) {
      const done = await revert(args.turns);
      if (done.turns === 0) return { ok: false, error: 'There is no checkpointed turn to revert.' };
      const lines = [...done.restored.map((p) => `restored ${p}`), ...done.removed.map((p) => `removed ${p}`)];
      return { ok: true, output: `Reverted ${done.turns} turn(s):\n${lines.join('\n') || '(no files)'}`, data: done };
    },
  });
}
