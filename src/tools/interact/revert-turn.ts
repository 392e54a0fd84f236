import type { z } from 'zod';
import { lazySchema } from '../../lazy-zod';
import type { RevertTarget } from '../../checkpoint/store';
import type { RevertPlan, RevertResult } from '../../checkpoint/types';
import { defineTool } from '../types';

// `turn` (an id from the review card) instead of the latest `turns`; `paths`: only these files of it.
const schema = lazySchema((z) =>
  z.strictObject({
    turns: z.number().int().min(1).max(50).default(1),
    turn: z.string().min(1).max(100).optional(),
    paths: z.array(z.string().min(1).max(4096)).min(1).max(1000).optional(),
  }),
);

/** What revert_turn reaches of the checkpoint store. */
export type TurnReverter = {
  plan(target: RevertTarget): Promise<RevertPlan>;
  revert(target: RevertTarget): Promise<RevertResult>;
};

/** The store's target for these arguments. */
function targetOf(args: z.infer<typeof schema>): RevertTarget {
  if (args.turn) return { turnId: args.turn, ...(args.paths ? { paths: args.paths } : {}) };
  return { turns: args.turns };
}

/** The card's lines for a plan: every file, what happens to it, and what cannot be restored. */
export function describePlan(plan: RevertPlan): string[] {
  if (plan.turns === 0 || plan.changes.length === 0)
    return ['Nothing to revert: no turn has changed files yet.'];
  const count = (kind: string) => plan.changes.filter((c) => c.kind === kind && !c.tooLarge).length;
  const large = plan.changes.filter((c) => c.tooLarge);
  return [
    `Reverts ${plan.turns} turn(s): ${count('modified')} changed, ${count('created')} created, ${count('deleted')} deleted file(s).`,
    ...plan.changes
      .filter((c) => !c.tooLarge)
      .map((c) =>
        c.kind === 'created'
          ? `remove  ${c.path} (created by the turn)`
          : c.kind === 'deleted'
            ? `restore ${c.path} (deleted by the turn)`
            : `restore ${c.path} (changed by the turn)`,
      ),
    ...(large.length > 0
      ? [
          `Too large to restore (over the size cap, listed not copied): ${large.length} file(s)`,
          ...large.map((c) => `  cannot restore ${c.path}`),
        ]
      : []),
  ];
}

/** `revert_turn`: put back every file the latest turns (or one turn) changed — by any tool, commands included. */
export function createRevertTurnTool(store: TurnReverter) {
  return defineTool({
    name: 'revert_turn',
    description: "Undo the latest turns' file changes (commands' too), or one `turn`'s (only `paths`).",
    schema,
    kind: 'write',
    summary: (args) =>
      args.turn
        ? `turn ${args.turn}${args.paths ? ` (${args.paths.length} file(s))` : ''}`
        : `${args.turns} turn(s)`,
    async describeEffects(args) {
      return describePlan(await store.plan(targetOf(args)));
    },
    async execute(args) {
      const done = await store.revert(targetOf(args));
      if (done.turns === 0) return { ok: false, error: 'There is no checkpointed turn to revert.' };
      const lines = [
        ...done.restored.map((p) => `restored ${p}`),
        ...done.removed.map((p) => `removed ${p}`),
        ...done.skipped.map((s) => `not restored ${s.path}: ${s.reason}`),
      ];
      return {
        ok: true,
        output: `Reverted ${done.turns} turn(s):\n${lines.join('\n') || '(no files)'}`,
        data: done,
      };
    },
  });
}
