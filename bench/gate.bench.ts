// Gate overhead: an auto-allowed call through `gate.intercept` (schema, guards, policy, token,
// re-check, two audit lines) against calling the same executor directly, per call, for a read tool
// without a path and a read_file-like tool with one; with a no-op audit sink and with the real
// audit writer (redaction + one line-atomic write per record) to a temp dir. Then policy
// evaluations per second with 200 user/project rules against the 16 built-in defaults alone.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { auditSinkOf, createAuditWriter } from '../src/audit/writer';
import { type AuditSink, type Caller, Gate } from '../src/gate/gate';
import { GrantStore } from '../src/gate/grants';
import { loadCommandGuard } from '../src/policy/command/command-guard';
import { type CallFacts, type FactDeps, gatherFacts } from '../src/policy/facts';
import { PathFence } from '../src/policy/guards/path-guard';
import { resolvePolicy } from '../src/policy/resolve';
import type { LoadedRule } from '../src/policy/rules';
import { type AnyTool, defineTool, type ToolContext } from '../src/tools/types';
import { median, percentile, printRow } from './stats';

const CALLS = 50_000;
const WARMUP = 10_000;
const POLICY_EVALS = 100_000;

const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-gate-bench-')));
const root = join(base, 'project');
mkdirSync(join(root, 'src'), { recursive: true });
writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');

const deps: FactDeps = {
  fence: new PathFence(root),
  commands: await loadCommandGuard(),
  sandbox: { kind: 'bwrap', path: '/usr/bin/bwrap' },
};
const OUTPUT = { ok: true as const, output: 'ok' };
const globFiles = defineTool({
  name: 'glob_files',
  description: 'stub read tool without a path',
  schema: z.strictObject({ pattern: z.string() }),
  kind: 'read',
  execute: async () => OUTPUT,
});
const readFile = defineTool({
  name: 'read_file',
  description: 'stub read tool with a fenced path',
  schema: z.strictObject({ path: z.string(), offset: z.number().int().optional() }),
  kind: 'read',
  guarded: { paths: ['path'] },
  execute: async () => OUTPUT,
});
const tools: AnyTool[] = [globFiles, readFile];

// A session keeps one rules array and replaces it when the policy reloads; so does this bench.
const NO_RULES: LoadedRule[] = [];

function makeGate(audit: AuditSink): Gate {
  const gate = new Gate({
    tools,
    deps,
    policy: () => ({ rules: NO_RULES, mode: 'manual' }),
    approvals: { timeoutMs: 60_000, onEvent: () => {} },
    grants: new GrantStore(),
    audit,
    sessionId: 'bench',
  });
  gate.attachApprover();
  return gate;
}

const caller: Caller = {
  agentId: 'main',
  agentName: 'main',
  taskId: 'task-1',
  signal: new AbortController().signal,
};
const ctx: ToolContext = {
  root: deps.fence.root,
  fence: deps.fence,
  commands: deps.commands,
  sandbox: deps.sandbox,
  signal: caller.signal,
};

/** Per-call times in µs of `calls` awaited calls, after `warmup` untimed ones. */
async function perCall(
  fn: (i: number) => Promise<unknown>,
  calls = CALLS,
  warmup = WARMUP,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times = new Array<number>(calls);
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await fn(i);
    times[i] = (performance.now() - start) * 1000;
  }
  return times;
}

const noop: AuditSink = { append: () => ({ ok: true }), appendSoon: async () => ({ ok: true }) };
const auditDir = join(base, 'audit');
const writer = createAuditWriter({
  dir: auditDir,
  sessionId: 'bench',
  onError: (e) => console.error(`audit writer: ${e.message}`),
});
const realAudit: AuditSink = auditSinkOf(writer);

type Case = { label: string; tool: AnyTool; args: Record<string, unknown> };
const CASES: Case[] = [
  { label: 'glob_files (no path)', tool: globFiles, args: { pattern: '**/*.ts' } },
  { label: 'read_file (fenced path)', tool: readFile, args: { path: 'src/a.ts' } },
];

const num = (n: number, width = 8) => n.toFixed(2).padStart(width);
console.log(
  `gate overhead per auto-allowed call: ${CALLS.toLocaleString('en-US')} calls after ${WARMUP.toLocaleString('en-US')} warm-up, in µs`,
);
printRow('', `${'median'.padStart(8)}${'p95'.padStart(8)}${'overhead'.padStart(10)}`);
for (const c of CASES) {
  const direct = await perCall(() => c.tool.execute(c.args, ctx));
  const d = median(direct);
  printRow(`${c.label}: executor directly`, `${num(d)}${num(percentile(direct, 95))}`);
  for (const [sinkLabel, sink] of [
    ['no-op audit', noop],
    ['audit writer', realAudit],
  ] as const) {
    const gate = makeGate(sink);
    let id = 0;
    const through = await perCall(() =>
      gate.intercept({ id: `c${id++}`, tool: c.tool.name, args: c.args }, caller),
    );
    const m = median(through);
    printRow(`${c.label}: gate, ${sinkLabel}`, `${num(m)}${num(percentile(through, 95))}${num(m - d, 10)}`);
  }
}
writer.close();

// Policy evaluations per second.
const POLICY_TOOLS = new Map<string, AnyTool>(
  [
    readFile,
    defineTool({
      name: 'write_file',
      description: '',
      schema: z.any(),
      kind: 'write',
      guarded: { paths: ['path'] },
      execute: async () => OUTPUT,
    }),
    defineTool({
      name: 'execute_command',
      description: '',
      schema: z.any(),
      kind: 'execute',
      guarded: { command: 'command', paths: ['cwd'], cwd: 'cwd', timeout: 'timeout_ms' },
      execute: async () => OUTPUT,
    }),
    defineTool({
      name: 'mcp__github__create_issue',
      description: '',
      schema: z.any(),
      kind: 'execute',
      execute: async () => OUTPUT,
    }),
  ].map((t) => [t.name, t]),
);
const facts = (tool: string, args: Record<string, unknown>): CallFacts =>
  gatherFacts(POLICY_TOOLS.get(tool) as AnyTool, args, deps);
const MIX: CallFacts[] = [
  facts('read_file', { path: 'src/a.ts' }),
  facts('write_file', { path: 'src/feature/new.ts', content: 'x' }),
  facts('write_file', { path: 'package.json', content: '{}' }),
  facts('execute_command', { command: 'npm test -- --run' }),
  facts('execute_command', { command: 'git diff && git status' }),
  facts('mcp__github__create_issue', { title: 't' }),
];

/** 200 rules: a third tool globs, a third path globs, a third command prefixes; none matches most calls. */
function manyRules(): LoadedRule[] {
  const rules: LoadedRule[] = [];
  const decisions = ['allow', 'ask', 'deny'] as const;
  for (let i = 0; i < 200; i++) {
    const decision = decisions[i % 3] as (typeof decisions)[number];
    const id = `project#${i + 1}`;
    if (i % 3 === 0) rules.push({ id, source: 'project', tool: `mcp__server${i}__*`, decision });
    else if (i % 3 === 1)
      rules.push({
        id,
        source: 'project',
        tool: 'write_file',
        when: { path: `packages/pkg${i}/**` },
        decision,
      });
    else
      rules.push({
        id,
        source: 'project',
        tool: 'execute_command',
        when: { command: `tool${i} sub *` },
        decision,
      });
  }
  return rules;
}

console.log(
  `\npolicy evaluations per second: resolvePolicy over a mix of ${MIX.length} calls (read, writes, commands, MCP)`,
);
for (const [label, rules] of [
  ['16 built-in defaults only', []],
  ['200 rules (globs, paths, commands) + defaults', manyRules()],
] as const) {
  const context = { rules, mode: 'manual' as const };
  for (let i = 0; i < 20_000; i++) resolvePolicy(MIX[i % MIX.length] as CallFacts, context);
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let i = 0; i < POLICY_EVALS; i++) resolvePolicy(MIX[i % MIX.length] as CallFacts, context);
    rates.push(POLICY_EVALS / ((performance.now() - start) / 1000));
  }
  const rate = median(rates);
  printRow(
    label,
    `${Math.round(rate).toLocaleString('en-US').padStart(11)} /s  (${num(1e6 / rate, 5)} µs each)`,
  );
}

rmSync(base, { recursive: true, force: true });
