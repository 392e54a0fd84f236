import type { z } from 'zod';
import { lazySchema } from '../../lazy-zod';
import type { TurnChange } from '../../protocol/review';
import {
  type RevertOptions,
  type RevertPlan,
  type RevertResult,
  type RevertTarget,
  defineTool,
} from '../types';

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
  revert(target: RevertTarget, options?: RevertOptions): Promise<RevertResult>;
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
  const restorable = plan.changes.filter((c) => !c.notRestorable && !c.tooLarge);
  const count = (kind: string) => restorable.filter((c) => c.kind === kind).length;
  const kept = plan.changes.filter((c) => c.notRestorable || c.tooLarge);
  return [
    `Reverts ${plan.turns} turn(s): ${count('modified')} changed, ${count('created')} created, ${count('deleted')} deleted file(s).`,
    ...restorable.flatMap((c) => [
      c.kind === 'created'
        ? `remove  ${c.path} (created by the turn)`
        : c.kind === 'deleted'
          ? `restore ${c.path} (deleted by the turn)`
          : `restore ${c.path} (changed by the turn)`,
      ...(c.changedSince ? bothVersions(c, 'approving overwrites the newer version') : []),
    ]),
    ...(kept.length > 0
      ? [
          `Not restorable: ${kept.length} file(s)`,
          ...kept.flatMap((c) => [
            `  cannot restore ${c.path}: ${c.notRestorable ?? 'over the size cap, listed not copied'}`,
            ...(c.changedSince ? bothVersions(c, 'kept') : []),
          ]),
        ]
      : []),
  ];
}

/** Lines a card shows at most of each version of a file someone else changed since the turn. */
const SHOWN_LINES = 6;

/** Both versions of a file changed since by someone else: what the turn left, and what is there now. */
function bothVersions(c: TurnChange, verdict: string): string[] {
  const since = c.changedSince ?? {};
  const excerpt = (text: string | undefined, absent: string) => {
    if (text === undefined) return [`      ${absent}`];
    const lines = text.split('\n');
    const shown = lines.slice(0, SHOWN_LINES).map((l) => `      │ ${l}`);
    return lines.length > SHOWN_LINES
      ? [...shown, `      … ${lines.length - SHOWN_LINES} more line(s)`]
      : shown;
  };
  return [
    `    changed since by someone else (${verdict}):`,
    '    the turn left:',
    ...excerpt(c.after, c.kind === 'deleted' ? '(the turn deleted it)' : '(binary or not shown)'),
    '    now:',
    ...excerpt(since.now, since.deleted ? '(deleted since)' : '(binary or not shown)'),
  ];
}

/** The tool's name, for the session's wiring (the escalation card, /undo). */
export const REVERT_TURN_TOOL = 'revert_turn';

/** `revert_turn`: put back every file the latest turns (or one turn) changed — by any tool, commands included. */
export function createRevertTurnTool(store: TurnReverter) {
  return defineTool({
    name: REVERT_TURN_TOOL,
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
    async execute(args, ctx) {
      // A file someone else changed since is overwritten only when a person approved this card,
      // which showed both versions; a rule, a grant or the auto mode keeps it (and says so).
      const done = await store.revert(targetOf(args), { overwriteChanged: ctx.personApproved === true });
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
