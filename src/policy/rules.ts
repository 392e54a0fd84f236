import type { z } from 'zod';
import { lazySchema } from '../lazy-zod';

/** Argument matchers of a rule; every matcher given must match. */
export const RuleWhenSchema = lazySchema((z) =>
  z
    .strictObject({
      /** Glob over the fenced real path, relative to the project (e.g. `src/**`). */
      path: z.string().min(1).optional(),
      /** Command prefix on parsed tokens (`git diff *`, `npm test`); every part of a compound command must match. */
      command: z.string().min(1).optional(),
      /** Exact argument values (`{"type": "node"}`). */
      args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      /** Regular expressions over string arguments (`{"url": "^https://docs\\."}`). */
      regex: z.record(z.string(), z.string()).optional(),
      /** Domain glob for web_fetch (`*.github.com`). */
      domain: z.string().min(1).optional(),
    })
    .refine((w) => Object.values(w).some((v) => v !== undefined), {
      message: 'when needs at least one matcher',
    })
    // An empty `args` or `regex` matches every call, and reads on a trust card as a condition. JSON
    // can make one that does not look empty: a `__proto__` key is dropped by the parser.
    .refine((w) => [w.args, w.regex].every((m) => m === undefined || Object.keys(m).length > 0), {
      message: 'an empty args or regex would match every call (a __proto__ key is no field name)',
    }),
);

export const RuleSchema = lazySchema((z) =>
  z.strictObject({
    id: z.string().min(1).optional(),
    /** A tool name or a glob over tool names (`mcp__github__*`). */
    tool: z.string().min(1),
    when: RuleWhenSchema.optional(),
    decision: z.enum(['allow', 'ask', 'deny']),
    risk: z.enum(['low', 'medium', 'high']).optional(),
    message: z.string().optional(),
  }),
);

/** `$WARDEN_HOME/policy.json`, `<project>/.warden/policy.json` and the managed `/etc/warden/policy.json`; `$schema` is for editors and ignored. */
export const PolicyFileSchema = lazySchema((z) =>
  z.strictObject({ $schema: z.string().optional(), rules: z.array(RuleSchema) }),
);

export type RuleWhen = z.infer<typeof RuleWhenSchema>;
export type PolicyRule = z.infer<typeof RuleSchema>;
export type PolicyDecision = PolicyRule['decision'];

/** A rule with where it came from; ids are filled in (`project#3`) when a file leaves them out. */
export type LoadedRule = PolicyRule & {
  id: string;
  source: 'builtin' | 'managed' | 'user' | 'project';
  file?: string;
};

const SEVERITY: Record<PolicyDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** Deny beats ask beats allow, whatever order the rules are written in. */
export function strictest<T extends { decision: PolicyDecision }>(rules: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const rule of rules) if (!best || SEVERITY[rule.decision] > SEVERITY[best.decision]) best = rule;
  return best;
}
