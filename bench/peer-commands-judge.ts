// The judging half of bench/peer-commands.bench.ts: one peer case through the real guard, facts and
// policy in a temp project, and the approval-fatigue probe through the same steps.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCommandGuard } from '../src/policy/command/command-guard';
import { type FactDeps, gatherFacts } from '../src/policy/facts';
import { PathFence } from '../src/policy/guards/path-guard';
import { resolvePolicy } from '../src/policy/resolve';
import type { LoadedRule } from '../src/policy/rules';
import type { Mode } from '../src/protocol';
import { turnReviewBlocks } from '../src/session/turn-review-need';
import { createEditFileTool } from '../src/tools/fs/edit-file';
import { createReadFileTool } from '../src/tools/fs/read-file';
import { createWriteFileTool } from '../src/tools/fs/write-file';
import { createExecuteCommandTool } from '../src/tools/exec/execute-command';
import type { AnyTool, SandboxInfo } from '../src/tools/types';
import { checkpointCoverage } from '../src/gate/write-coverage';

/** One case of ../shared/peer-corpus/commands.json (see its README.md). */
export type PeerCase = {
  id: string;
  command: string;
  peerVerdict: 'safe' | 'unsafe' | 'dangerous';
  note: string;
  effect?: string;
  rules?: { decision: 'allow' | 'ask' | 'deny'; command: string }[];
  probe?: { files?: Record<string, string>; command?: string };
};

export type Judgement = {
  decision: 'allow' | 'ask' | 'deny';
  restorable: boolean;
  why: string;
  reasons: string[];
};

const guard = await loadCommandGuard();
const BWRAP: SandboxInfo = { kind: 'bwrap', path: '/usr/bin/bwrap' };
const command = createExecuteCommandTool() as unknown as AnyTool;

function depsFor(root: string): FactDeps {
  const fence = new PathFence(root);
  return { fence, commands: guard, sandbox: BWRAP, coverage: checkpointCoverage(root, { git: true }) };
}

/** The gate's steps 1–2 for a case in `mode`, with the rules the peer's test set up. */
export function judgeIn(root: string, c: PeerCase, mode: Mode): Judgement {
  const rules: LoadedRule[] = (c.rules ?? []).map((r, i) => ({
    id: `peer#${i}`,
    source: 'user',
    tool: 'execute_command',
    decision: r.decision,
    when: { command: r.command },
  }));
  const facts = gatherFacts(command, { command: c.probe?.command ?? c.command }, depsFor(root));
  const policy = resolvePolicy(facts, { rules, mode });
  const reasons = policy.risk.reasons;
  return {
    decision: policy.decision,
    restorable: reasons.some((r) => r.includes('undo restores it')),
    why: `${policy.decision} ${policy.risk.level}: ${reasons.join('; ')}`,
    reasons,
  };
}

/** A name for why a peer-safe command shows a card, from its first reason. */
export function classOf(c: PeerCase, j: Judgement): string {
  const r = j.reasons.find((x) => x !== 'read-only command') ?? j.why;
  if (/cannot judge/.test(r))
    return `cannot judge: ${r
      .replace(/^.*cannot judge it: /, '')
      .split(' near ')[0]
      ?.slice(0, 60)}`;
  if (/outside the project/.test(r)) return 'reads outside the project';
  if (/credential/.test(r)) return 'names a credential file';
  if (/^writes /.test(r)) return 'writes a file';
  if (j.decision === 'deny') return `denied: ${r.slice(0, 60)}`;
  const program = c.command.trim().split(/\s+/)[0] ?? '';
  return j.reasons.length === 0 ? `${program}: not read-only to the guard` : `${program}: ${r.slice(0, 60)}`;
}

/**
 * The approval-fatigue probe of issue 27: 3 reads, 4 read-only commands, 2 writes (a new file and an
 * edit), `npm test`, in manual mode, then the turn's review. Counts the cards a person meets.
 */
export function fatigueProbe(root: string): { cards: number; asked: string[] } {
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'README.md'), '# probe\n');
  const deps = depsFor(root);
  const read = createReadFileTool() as unknown as AnyTool;
  const write = createWriteFileTool() as unknown as AnyTool;
  const edit = createEditFileTool() as unknown as AnyTool;
  const calls: [AnyTool, Record<string, unknown>][] = [
    [read, { path: 'src/a.ts' }],
    [read, { path: 'src/b.ts' }],
    [read, { path: 'README.md' }],
    [command, { command: 'ls src' }],
    [command, { command: 'git status' }],
    [command, { command: 'git diff' }],
    [command, { command: 'git log --oneline -5' }],
    [write, { path: 'src/c.ts', content: 'export const c = 3;\n' }],
    [edit, { path: 'src/a.ts', edits: [{ old_string: '1', new_string: '10' }] }],
    [command, { command: 'npm test' }],
  ];
  const asked: string[] = [];
  const approved = new Map<string, string>();
  for (const [tool, args] of calls) {
    const facts = gatherFacts(tool, args, deps);
    const policy = resolvePolicy(facts, { rules: [], mode: 'manual' });
    if (policy.decision === 'allow') continue;
    asked.push(`${tool.name} ${String(args.path ?? args.command)}`);
    // The person approves each card; the file then holds what the card showed.
    if (tool.kind === 'write') approved.set(String(args.path), `approved ${String(args.path)}`);
  }
  // What the turn changed: the two files the write tools wrote (npm test changes nothing here).
  const changes = [
    { path: 'src/c.ts', kind: 'created', hash: 'approved src/c.ts' },
    { path: 'src/a.ts', kind: 'modified', hash: 'approved src/a.ts' },
  ];
  if (turnReviewBlocks({ mode: 'manual', changes, approved })) asked.push('turn review');
  return { cards: asked.length, asked };
}
