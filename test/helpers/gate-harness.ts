/**
 * A real Gate (with its ApprovalBroker and GrantStore) over stub tools and a temp project, for
 * gate, agent and session tests. The stub tools really act — write_file writes into the temp
 * project, every tool with an effect appends a line to a log outside it — so tests assert side
 * effects, not only return values.
 *
 *   const h = createGateHarness();            // an approver is attached by default
 *   const result = h.call('write_file', { path: 'a.txt', content: 'x' });
 *   const request = await h.nextRequest();    // the next approval_requested, in arrival order
 *   h.gate.decide(request.id, { kind: 'approve' });
 *   expect((await result).status).toBe('executed');
 *   expect(h.read('a.txt')).toBe('x');
 *   h.cleanup();
 */
import { confirmingHigh } from './confirming-person';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AuditRecord } from '../../src/protocol/audit';
import { ApprovalBroker, type BrokerEvent } from '../../src/gate/broker';
import {
  type ApprovalOptions,
  type AuditSink,
  type Caller,
  Gate,
  type GateOptions,
} from '../../src/gate/gate';
import { GrantStore } from '../../src/gate/grants';
import { checkpointCoverage } from '../../src/gate/write-coverage';
import { loadCommandGuard } from '../../src/policy/command/command-guard';
import type { CommandGuard } from '../../src/policy/command/command-types';
import { PathFence } from '../../src/policy/guards/path-guard';
import { networkEntries } from '../../src/policy/network-hosts';
import type { PolicyContext } from '../../src/policy/resolve';
import type { LoadedRule, PolicyRule } from '../../src/policy/rules';
import type { ApprovalRequest, Mode, ToolResultEnvelope } from '../../src/protocol';
import type { TwoPersonRule } from '../../src/gate/two-person';
import { type AnyTool, defineTool, type SandboxInfo, type ToolContext } from '../../src/tools/types';

/** The real command guard (tree-sitter-bash), loaded once per test file. */
const realCommandGuard = await loadCommandGuard();

export type HarnessOptions = {
  mode?: Mode;
  /** Managed/user/project rules; `source` defaults to 'project' and `id` to `project#N`. */
  rules?: HarnessRule[];
  /** Which cards need two people (GateOptions.twoPerson). */
  twoPerson?: TwoPersonRule;
  /** The requester's own key id (the broker's `requesterKeyId`). */
  requesterKeyId?: string;
  /** Replaces the policy context entirely (e.g. a function that throws). */
  policy?: () => PolicyContext;
  sandbox?: SandboxInfo;
  /** Defaults to the real command guard. */
  commands?: CommandGuard;
  /** Decision timeout of the broker (default 60 s). */
  timeoutMs?: number;
  invalidLimit?: number;
  /** Judge writes by what undo can restore, as a session does (src/gate/write-coverage.ts). */
  coverage?: boolean;
  /** Attach an approver at start (default true); false is a headless run. */
  approver?: boolean;
  /** Extra tools next to the stubs (same name replaces a stub). */
  tools?: AnyTool[];
  /**
   * Audit sink; the default collects records in `h.records`. One with only `append` is also handed
   * the lines the gate would write together, one at a time, at once.
   */
  audit?: AuditSink | Pick<AuditSink, 'append'>;
  /** Called for every broker event, after the harness recorded it (may throw, to test the broker). */
  onEvent?: (event: BrokerEvent) => void;
  /** The gate's lazy command-guard loader (GateOptions.loadCommandGuard). */
  loadCommandGuard?: () => Promise<void>;
  /** What every call waits for first (GateOptions.ready). */
  ready?: () => Promise<void>;
  /** The hosts the person's own config lets commands reach without a card (`sandbox.network`). */
  network?: string[];
  /** The PreToolUse hooks (GateOptions.preToolUse). */
  preToolUse?: GateOptions['preToolUse'];
  /** The PermissionRequest hooks that may answer a card first (ApprovalOptions.screen). */
  screen?: ApprovalOptions['screen'];
  /** An answer given elsewhere for a request (ApprovalOptions.answerFor). */
  answerFor?: ApprovalOptions['answerFor'];
};

export type GateHarness = ReturnType<typeof createGateHarness>;

/** Builds the gate over a fresh temp project. Call `cleanup()` in afterEach. */
export function createGateHarness(options: HarnessOptions = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-gate-')));
  const root = join(base, 'project');
  mkdirSync(root);
  const ranLog = join(base, 'ran.log');
  const clock = { offset: 0 };
  const now = () => Date.now() + clock.offset;

  const records: AuditRecord[] = [];
  const events: BrokerEvent[] = [];
  const requested: ApprovalRequest[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };

  let mode: Mode = options.mode ?? 'manual';
  let rules: LoadedRule[] = fillRules(options.rules ?? []);
  const fence = new PathFence(root);
  const deps = {
    fence,
    commands: options.commands ?? realCommandGuard,
    sandbox: options.sandbox ?? ({ kind: 'bwrap', path: '/usr/bin/bwrap' } as SandboxInfo),
    ...(options.coverage ? { coverage: checkpointCoverage(root, { git: true }) } : {}),
    ...(options.network ? { network: networkEntries(options.network) } : {}),
  };

  // The gate owns its queue; the harness builds the same one itself so tests can also drive it directly.
  const approvals: ApprovalOptions = {
    timeoutMs: options.timeoutMs ?? 60_000,
    now,
    ...(options.invalidLimit !== undefined ? { invalidLimit: options.invalidLimit } : {}),
    ...(options.requesterKeyId ? { requesterKeyId: () => options.requesterKeyId } : {}),
    ...(options.screen ? { screen: options.screen } : {}),
    ...(options.answerFor ? { answerFor: options.answerFor } : {}),
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'requested') requested.push(event.request);
      notify();
      options.onEvent?.(event);
    },
  };
  const broker = new ApprovalBroker(approvals);
  const grants = new GrantStore(now);
  const byName = new Map<string, AnyTool>();
  for (const tool of [...stubTools(ranLog), ...(options.tools ?? [])]) byName.set(tool.name, tool);
  const gate = new Gate(
    {
      tools: [...byName.values()],
      deps,
      policy: options.policy ?? (() => ({ rules, mode })),
      approvals,
      grants,
      audit: syncSink(
        options.audit ?? {
          append: (r) => {
            records.push(r);
            return { ok: true };
          },
        },
      ),
      sessionId: 'sess-test',
      ...(options.loadCommandGuard ? { loadCommandGuard: options.loadCommandGuard } : {}),
      ...(options.ready ? { ready: options.ready } : {}),
      ...(options.twoPerson ? { twoPerson: () => options.twoPerson } : {}),
      ...(options.preToolUse ? { preToolUse: options.preToolUse } : {}),
    },
    broker,
  );
  const detach = options.approver === false ? () => {} : broker.attachApprover();
  // The harness's person confirms a high-risk approve, as the drawer's second y does.
  const decideRaw = gate.decide.bind(gate);
  gate.decide = (id, decision, by) => decideRaw(id, confirmingHigh(gate.pending(), id, decision), by);

  let calls = 0;
  let taken = 0;
  const caller = (over: Partial<Caller> = {}): Caller => ({
    agentId: 'main',
    agentName: 'main',
    taskId: 'task-1',
    signal: new AbortController().signal,
    ...over,
  });
  const ran = (): string[] =>
    existsSync(ranLog) ? readFileSync(ranLog, 'utf8').split('\n').filter(Boolean) : [];
  /** Resolves when `test()` holds, re-checking after every broker event. */
  const until = <T>(test: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const value = test();
        if (value === undefined) return false;
        waiters.delete(check as () => void);
        resolve(value);
        return true;
      };
      if (!check()) waiters.add(check as () => void);
    });

  return {
    root,
    gate,
    broker,
    grants,
    fence,
    deps,
    records,
    events,
    clock: { now, advance: (ms: number) => void (clock.offset += ms) },

    /** A caller for the main agent in task-1; override any field. */
    caller,
    /** Sends one tool call through `gate.intercept`. */
    call(
      tool: string,
      args: unknown,
      over: Partial<Caller> & { why?: string } = {},
    ): Promise<ToolResultEnvelope> {
      const { why, ...who } = over;
      calls += 1;
      return gate.intercept({ id: `call-${calls}`, tool, args, ...(why ? { why } : {}) }, caller(who));
    },
    /** The next approval request in arrival order (each returned once), waiting if none arrived yet. */
    nextRequest(): Promise<ApprovalRequest> {
      const index = taken++;
      return until(() => requested[index]);
    },
    /** Resolves with the value of `test()` once it is defined, re-checking after every broker event. */
    until,
    /** Resolves once `count` requests are pending in the broker. */
    waitForPending(count: number): Promise<ApprovalRequest[]> {
      return until(() => (broker.pending().length >= count ? broker.pending() : undefined));
    },
    setMode(next: Mode) {
      mode = next;
    },
    setRules(next: HarnessRule[]) {
      rules = fillRules(next);
    },
    /** Detaches the default approver (pending requests fail with no_approver). */
    detachApprover: detach,

    /** Tool names (and args) of every stub that ran, in order: `execute_command {"command":"ls"}`. */
    ran,
    ranTools(): string[] {
      return ran().map((line) => line.split(' ')[0] as string);
    },
    read(rel: string): string | undefined {
      const p = join(root, rel);
      return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
    },
    write(rel: string, content: string) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), content);
    },
    /** The audit lines (decision, outcome) of one approval request. */
    auditOf(requestId: string): AuditRecord[] {
      return records.filter((r) => r.requestId === requestId);
    },
    /** The outcome line of the last call of `tool`. */
    lastOutcome(tool: string): AuditRecord | undefined {
      return records.filter((r) => r.tool === tool && r.phase === 'outcome').at(-1);
    },
    cleanup() {
      detach();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A rule as a test gives it: the source and id may be left out. */
export type HarnessRule = PolicyRule & { source?: 'managed' | 'user' | 'project' };

function fillRules(rules: HarnessRule[]): LoadedRule[] {
  return rules.map((rule, i) => {
    const source = rule.source ?? 'project';
    return { ...rule, source, id: rule.id ?? `${source}#${i + 1}` };
  });
}

/** Stub tools with real, observable effects. Every effect appends `<tool> <args JSON>` to `ranLog`. */
export function stubTools(ranLog: string): AnyTool[] {
  const ran = (tool: string, args: unknown) => appendFileSync(ranLog, `${tool} ${JSON.stringify(args)}\n`);
  const target = (ctx: ToolContext, path: string): string => {
    const verdict = ctx.fence.check(path);
    if (!verdict.ok) throw new Error(verdict.reason);
    return verdict.path;
  };
  return [
    defineTool({
      name: 'read_file',
      description: 'Reads a file of the project.',
      schema: z.strictObject({ path: z.string() }),
      kind: 'read',
      guarded: { paths: ['path'] },
      async execute(args, ctx) {
        const p = target(ctx, args.path);
        return existsSync(p)
          ? { ok: true, output: readFileSync(p, 'utf8') }
          : { ok: false, error: `${args.path} does not exist` };
      },
    }),
    defineTool({
      name: 'glob_files',
      description: 'Finds files (stub: touches nothing).',
      schema: z.strictObject({ pattern: z.string() }),
      kind: 'read',
      async execute(args) {
        return { ok: true, output: `no files match ${args.pattern}` };
      },
    }),
    defineTool({
      name: 'write_file',
      description: 'Writes a file of the project.',
      schema: z.strictObject({ path: z.string(), content: z.string() }),
      kind: 'write',
      guarded: {
        paths: ['path'],
        content: 'content',
        maxBytes: { field: 'content', bytes: 5 * 1024 * 1024 },
      },
      reversible: true,
      autoEditable: true,
      async execute(args, ctx) {
        const p = target(ctx, args.path);
        await ctx.recordPreImage?.(p);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, args.content);
        ran('write_file', args);
        return { ok: true, output: `wrote ${args.path}` };
      },
    }),
    defineTool({
      name: 'execute_command',
      description: 'Runs a shell command (stub: only records it).',
      schema: z.strictObject({
        command: z.string(),
        cwd: z.string().optional(),
        timeout_ms: z.number().int().positive().optional(),
      }),
      kind: 'execute',
      guarded: { command: 'command', paths: ['cwd'], cwd: 'cwd', timeout: 'timeout_ms' },
      async execute(args) {
        ran('execute_command', args);
        return { ok: true, output: `ran ${args.command}` };
      },
    }),
    defineTool({
      name: 'web_fetch',
      description: 'Fetches a URL (stub: only records it).',
      schema: z.strictObject({ url: z.string() }),
      kind: 'network',
      guarded: { url: 'url' },
      async execute(args) {
        ran('web_fetch', args);
        return { ok: true, output: `fetched ${args.url}` };
      },
    }),
    mcpStub('fake', 'delete'),
    mcpStub('fake', 'archive'),
    mcpStub('other', 'delete'),
    defineTool({
      name: 'propose_plan',
      description: 'Proposes a plan for review.',
      schema: z.strictObject({ title: z.string().optional(), steps: z.array(z.string()).min(1) }),
      kind: 'interact',
      interactive: true,
      preview: (args) => ({ kind: 'plan', title: args.title ?? 'Plan', steps: args.steps.map(String) }),
      async execute(args) {
        ran('propose_plan', args);
        return { ok: true, output: `plan accepted: ${args.steps.join(' / ')}` };
      },
    }),
    defineTool({
      name: 'ask_user',
      description: 'Asks the person a question.',
      schema: z.strictObject({ question: z.string(), options: z.array(z.string()).optional() }),
      kind: 'interact',
      interactive: true,
      preview: (args) => ({
        kind: 'question',
        question: args.question,
        ...(args.options ? { options: args.options } : {}),
      }),
      async execute(args, ctx) {
        ran('ask_user', args);
        return { ok: true, output: ctx.answer ?? '(no answer)' };
      },
    }),
  ];

  function mcpStub(server: string, action: string): AnyTool {
    return defineTool({
      name: `mcp__${server}__${action}`,
      description: `MCP ${server} ${action} (stub: only records it).`,
      schema: z.object({ id: z.string() }),
      kind: 'execute',
      async execute(args) {
        ran(`mcp__${server}__${action}`, args);
        return { ok: true, output: `${action}d ${args.id}` };
      },
    });
  }
}

/** Whether `promise` has settled after the event loop turned a few times (no timers): a wait that must not end yet. */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  return done;
}

/** The sink itself, or one that writes every line at once, the ones the gate would wait for too. */
function syncSink(sink: AuditSink | Pick<AuditSink, 'append'>): AuditSink {
  if ('appendSoon' in sink) return sink;
  return { append: (r) => sink.append(r), appendSoon: async (r) => sink.append(r) };
}
