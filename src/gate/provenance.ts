/**
 * Provenance on the card: approving `npm test` after an agent planted a `.npmrc` or
 * changed a test file runs what the agent wrote, outside any diff the person read. So the card of a
 * command that runs project code lists the files agents changed in this session that the person has
 * not reviewed: the changes of turns whose review is still open (from the checkpoints, exact), and
 * in the current turn the files written without a person seeing the diff (auto-edit, a grant, a
 * rule) and the commands that ran (their changes are known when the turn's checkpoint ends).
 */
import type { CallFacts } from '../policy/facts';
import type { Approver } from '../protocol';

/** Programs that run code of the project they are started in (its scripts, tests, build files). */
const RUNNERS = new Set([
  'npm',
  'npx',
  'pnpm',
  'pnpx',
  'yarn',
  'bun',
  'bunx',
  'deno',
  'node',
  'tsx',
  'ts-node',
  'make',
  'gmake',
  'cmake',
  'ninja',
  'just',
  'task',
  'pytest',
  'python',
  'python3',
  'tox',
  'nox',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'ruby',
  'rake',
  'bundle',
  'rspec',
  'perl',
  'php',
  'composer',
  'cargo',
  'go',
  'mvn',
  'gradle',
  'ant',
  'sbt',
  'dotnet',
  'jest',
  'vitest',
  'mocha',
  'bash',
  'sh',
  'zsh',
  'dash',
  'source',
  '.',
]);

/** Whether a command runs code of the project: a runner above, or a program given by a path (`./x.sh`). */
export function runsProjectCode(facts: CallFacts): boolean {
  for (const part of facts.command?.parts ?? []) {
    const program = part.argv[0] ?? '';
    if (program.includes('/')) return true;
    if (RUNNERS.has(program)) return true;
  }
  return false;
}

/** The unreviewed changes, tracked by the gate as calls run and by the session as turns end and are reviewed. */
export class Provenance {
  /** Files written in the current turn without a person seeing their diff. */
  private readonly written = new Set<string>();
  /** Commands run in the current turn: what they changed is known at the turn's end. */
  private commands = 0;
  /** Turn id → the files it changed, while its review is open. */
  private readonly turns = new Map<string, string[]>();

  /** A file-changing call ran. Contract: never throws. */
  executed(facts: CallFacts, approver: Approver): void {
    if (facts.command) {
      this.commands++;
      return;
    }
    if (facts.kind !== 'write') return;
    const seen = approver === 'human' && facts.paths.length === 1;
    for (const p of facts.paths) if (p.verdict.ok && !seen) this.written.add(p.verdict.relative);
  }

  /** A turn ended with these changes (the checkpoint's list). */
  turnEnded(turnId: string, paths: readonly string[]): void {
    this.written.clear();
    this.commands = 0;
    if (paths.length > 0) this.turns.set(turnId, [...paths]);
  }

  /** The person answered a turn's review (kept or reverted): its files are reviewed. */
  reviewed(turnId: string): void {
    this.turns.delete(turnId);
  }

  /** The lines for a card: each unreviewed file, and the current turn's commands. */
  unreviewed(): { files: string[]; commands: number } {
    const files = new Set<string>();
    for (const paths of this.turns.values()) for (const p of paths) files.add(p);
    for (const p of this.written) files.add(p);
    return { files: [...files].sort(), commands: this.commands };
  }
}
