import { z } from 'zod';
import { defineTool } from '../types';

const schema = z.strictObject({ turns: z.number().int().min(1).max(50).default(1) });

/** Restores the files of the latest turns; provided by the checkpoint store. */
export type RevertTurns = (
  turns: number,
) => Promise<{ restored: string[]; removed: string[]; turns: number }>;
/** Says which files reverting would restore or remove, without touching them. */
export type PlanRevert = (turns: number) => { restore: string[]; remove: string[]; turns: number };

/** `revert_turn`: put back every file the latest turns wrote or created. */
export function createRevertTurnTool(revert: RevertTurns, plan?: PlanRevert) {
  return defineTool({
    name: 'revert_turn',
    description: 'Undo the file changes of the latest turns (not commands).',
    schema,
    kind: 'write',
    summary: (args) => `${args.turns} turn(s)`,
    async describeEffects(args) {
      const what = plan?.(args.turns);
      if (!what) return [];
      if (what.turns === 0) return ['Nothing to revert: no turn has changed files yet.'];
      return [
        `Reverts ${what.turns} turn(s):`,
        ...what.restore.map((p) => `restore ${p}`),
        ...what.remove.map((p) => `remove ${p} (it did not exist before)`),
      ];
    },
    async execute(args) {
      const done = await revert(args.turns);
      if (done.turns === 0) return { ok: false, error: 'There is no checkpointed turn to revert.' };
      const lines = [
        ...done.restored.map((p) => `restored ${p}`),
        ...done.removed.map((p) => `removed ${p}`),
      ];
      return {
        ok: true,
        output: `Reverted ${done.turns} turn(s):\n${lines.join('\n') || '(no files)'}`,
        data: done,
      };
    },
  });
}
