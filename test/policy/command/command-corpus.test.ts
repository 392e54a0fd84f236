import { beforeAll, describe, expect, it } from 'vitest';
import { loadCommandGuard } from '../../../src/policy/command/command-guard';
import type { CommandGuard, CommandVerdict } from '../../../src/policy/command/command-types';
import { ALL_CASES, CORPUS } from './command-corpus/index';
import type { Case } from './command-corpus/types';

let guard: CommandGuard;
beforeAll(async () => {
  guard = await loadCommandGuard();
});

/** The verdict as a corpus kind, for one readable failure message. */
function kindOf(v: CommandVerdict): Case['kind'] {
  if (v.kind !== 'ok') return v.kind;
  if (v.destructive.length > 0) return 'destructive';
  // git status|diff|log|show are read-only only once the gate has read the repository's config
  // (issue 27 §3, test/redteam/judge-git-reads.test.ts): to the guard alone they are `ok`.
  return v.readOnly && !v.parts.some((p) => p.repoConfig) ? 'read_only' : 'ok';
}

const writesOf = (v: CommandVerdict): string[] => [...new Set(v.parts.flatMap((p) => p.writes ?? []))].sort();

describe('command corpus (issue 10)', () => {
  it('holds at least 300 distinct commands', () => {
    expect(ALL_CASES.length).toBeGreaterThanOrEqual(300);
    const seen = new Set<string>();
    const repeated = ALL_CASES.filter((c) => seen.size === seen.add(c.cmd).size).map((c) => c.cmd);
    expect(repeated).toEqual([]);
  });

  for (const [name, cases] of Object.entries(CORPUS)) {
    describe(name, () => {
      it.each(cases.map((c) => [c.cmd, c] as const))('%j', (_cmd, c) => {
        const v = guard.judge(c.cmd);
        const detail = JSON.stringify({
          kind: v.kind,
          reason: v.kind === 'cannot_judge' ? v.reason : undefined,
          parts: v.parts,
        });
        expect(kindOf(v), detail).toBe(c.kind);
        if (v.kind === 'deny') expect(v.ruleId).toBe(c.rule);
        if (c.says && v.kind === 'cannot_judge') expect(v.reason).toMatch(c.says);
        if (c.says && v.kind === 'ok') expect(v.destructive.join(' | ')).toMatch(c.says);
        // Never read-only while anything asks; never a silent write.
        if (v.kind === 'cannot_judge') expect(v.parts.some((p) => p.readOnly && p.writes)).toBe(false);
        if (c.writes) expect(writesOf(v), detail).toEqual([...c.writes].sort());
      });
    });
  }
});
