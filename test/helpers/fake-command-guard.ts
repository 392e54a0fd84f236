import type { CommandGuard, CommandPart, CommandVerdict } from '../../src/policy/command-types';

/**
 * A small, predictable stand-in for the real command guard, for gate and policy tests.
 * It splits on `;`, `&&`, `||`, `|` and newlines, tokenises each part on whitespace and judges
 * parts from small tables. Anything shell-like it does not model (`$(`, backticks, redirects,
 * quotes) is `cannot_judge`. `overrides` maps an exact command line to a verdict.
 */
export function fakeCommandGuard(overrides: Record<string, CommandVerdict> = {}): CommandGuard {
  return {
    judge(command: string): CommandVerdict {
      const exact = overrides[command];
      if (exact) return exact;
      if (/[`$<>"'\\(){}]/.test(command)) {
        return { kind: 'cannot_judge', reason: 'the fake guard does not model quoting, redirects or substitutions', parts: [], notes: [] };
      }
      const parts: CommandPart[] = command
        .split(/;|&&|\|\||\||\n/)
        .map((text) => text.trim())
        .filter((text) => text.length > 0)
        .map((text) => judgePart(text));
      if (parts.length === 0) return { kind: 'cannot_judge', reason: 'empty command', parts: [], notes: [] };
      for (const part of parts) {
        const denied = DENY.find((d) => startsWith(part.argv, d.argv));
        if (denied) return { kind: 'deny', ruleId: denied.ruleId, reason: denied.reason, part: part.text, parts, notes: [] };
      }
      return {
        kind: 'ok',
        parts,
        readOnly: parts.every((p) => p.readOnly),
        destructive: parts.flatMap((p) => (p.destructive ? [p.destructive] : [])),
        notes: [],
      };
    },
  };
}

const READ_ONLY = [['ls'], ['cat'], ['pwd'], ['echo'], ['rg'], ['grep'], ['head'], ['wc'], ['git', 'status'], ['git', 'log'], ['git', 'diff']];
const DESTRUCTIVE: { argv: string[]; what: string }[] = [
  { argv: ['rm'], what: 'rm deletes files' },
  { argv: ['git', 'push', '--force'], what: 'git push --force rewrites remote history' },
  { argv: ['git', 'reset', '--hard'], what: 'git reset --hard discards work' },
  { argv: ['npm', 'publish'], what: 'npm publish publishes a package' },
];
const DENY: { argv: string[]; ruleId: string; reason: string }[] = [
  { argv: ['rm', '-rf', '/'], ruleId: 'command-deny-root', reason: 'Deleting the root file system is never allowed.' },
  { argv: ['mkfs'], ruleId: 'command-deny-mkfs', reason: 'Formatting a disk is never allowed.' },
  { argv: ['shutdown'], ruleId: 'command-deny-shutdown', reason: 'Shutting the machine down is never allowed.' },
];

function judgePart(text: string): CommandPart {
  const argv = text.split(/\s+/);
  const destructive = DESTRUCTIVE.find((d) => startsWith(argv, d.argv))?.what;
  return { text, argv, readOnly: READ_ONLY.some((r) => startsWith(argv, r)), ...(destructive ? { destructive } : {}) };
}

function startsWith(argv: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= argv.length && prefix.every((t, i) => argv[i] === t);
}
