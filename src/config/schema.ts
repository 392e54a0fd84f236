import type { z } from 'zod';
import { lazySchema, zod } from '../lazy-zod';
import { MODES } from '../protocol';
import { MAX_NETWORK_ENTRIES, parseNetworkEntry } from '../policy/network-hosts';
import { HooksSchema } from './hooks-schema';
import { pickedVariant } from './schema-variants';

/** An http(s) URL; other schemes (file:, javascript:, ftp:) are refused. */
const httpUrl = lazySchema((z) => z.url({ protocol: /^https?$/, error: 'expected an http or https URL' }));

const positiveInt = (max: number) =>
  zod()
    .number()
    .int({ error: 'expected a whole number' })
    .positive({ error: 'expected a positive whole number' })
    .max(max, { error: `expected at most ${max}` });

/** zod's `z`, as the builders of lazy schemas receive it. */
type Zod = typeof z;

const stringMap = lazySchema((z) => z.record(z.string(), z.string()));

/** An MCP server started as a child process, as in Claude Desktop / Claude Code `mcpServers`. */
export const McpStdioServerSchema = lazySchema((z) =>
  z.strictObject({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, { error: 'expected a non-empty command' }),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    disabled: z.boolean().optional(),
  }),
);

/** An MCP server reached over HTTP (streamable HTTP, or SSE when `type` says so). */
export const McpHttpServerSchema = lazySchema((z) =>
  z.strictObject({
    type: z.enum(['http', 'sse']).optional(),
    url: httpUrl,
    headers: stringMap.optional(),
    disabled: z.boolean().optional(),
  }),
);

export type McpStdioServer = z.infer<typeof McpStdioServerSchema>;
export type McpHttpServer = z.infer<typeof McpHttpServerSchema>;
export type McpServerConfig = McpStdioServer | McpHttpServer;

/**
 * Picks the variant by its keys (`url` without `command` is HTTP) and validates only that one,
 * so an error names the field that is wrong (`command: expected string`) rather than "no union
 * member matched".
 */
const mcpServerSchema = (z: Zod) =>
  pickedVariant<typeof McpStdioServerSchema | typeof McpHttpServerSchema>(
    z,
    [McpStdioServerSchema, McpHttpServerSchema],
    (value) =>
      typeof value === 'object' && value !== null && 'url' in value && !('command' in value)
        ? McpHttpServerSchema
        : McpStdioServerSchema,
  );

/** Server names become tool names `mcp__<server>__<tool>`, so they are plain identifiers. */
const serverName = lazySchema((z) =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/, {
    error: 'a server name uses letters, digits, - and single _ only',
  }),
);

export const WebSearchSchema = lazySchema((z) =>
  z.strictObject({
    provider: z.literal('searxng', { error: 'expected "searxng"' }),
    url: httpUrl,
  }),
);
export type WebSearchConfig = z.infer<typeof WebSearchSchema>;

/** When an agent stops and asks the person: failed results in a row, rejections of similar calls. */
export const EscalationSchema = lazySchema((z) =>
  z.strictObject({
    failures: positiveInt(100).optional(),
    rejections: positiveInt(100).optional(),
  }),
);

/**
 * Offers to save repeated approvals as rules and repeated edits as preferences: how
 * many repeats make an offer. Offers are never taken without consent; `enabled: false` stops them.
 */
export const SuggestionsSchema = lazySchema((z) =>
  z.strictObject({
    enabled: z.boolean().optional(),
    /** Approvals of the same plain command (default 3). */
    commandApprovals: positiveInt(100).optional(),
    /** Approved writes under the same folder (default 5). */
    pathApprovals: positiveInt(100).optional(),
    /** The same edit of the model's arguments (default 2). */
    editRepeats: positiveInt(100).optional(),
  }),
);

/** How warden tells a person who is not looking: the terminal's own notification, and a program of theirs. */
export const NOTIFY_METHODS = ['auto', 'osc9', 'osc777', 'bell', 'off'] as const;
export type NotifyMethod = (typeof NOTIFY_METHODS)[number];

export const NotifySchema = lazySchema((z) =>
  z.strictObject({
    /** `auto`: OSC 9 where the terminal is known to show it, OSC 777 where that is, else the bell. */
    method: z.enum(NOTIFY_METHODS).optional(),
    /** A program (and its arguments) given each event as one JSON object on stdin: ntfy, a chat, a phone. */
    command: z
      .array(z.string().min(1, { error: 'expected a non-empty word' }))
      .min(1)
      .optional(),
  }),
);

/** The escalation thresholds when no file sets them. */
export const ESCALATION_DEFAULTS = { failures: 3, rejections: 2 } as const satisfies Required<
  z.infer<typeof EscalationSchema>
>;

/** How many repeats make an offer when no file sets them (`suggestions`). */
export const SUGGESTION_DEFAULTS = { commandApprovals: 3, pathApprovals: 5, editRepeats: 2 } as const;

/** How a person is notified when no file says. */
export const NOTIFY_DEFAULTS = { method: 'auto' } as const satisfies z.infer<typeof NotifySchema>;

/** What a card does when nobody is there to decide (a headless run): fail closed, or park the run. */
export const ApprovalsSchema = lazySchema((z) =>
  z.strictObject({
    /** `deny`: the call fails as no_approver; `park`: the run stops with it waiting (exit 5). */
    whenNobodyAsks: z.enum(['deny', 'park']).optional(),
  }),
);

/** What an unattended run does with a card when no file says. */
export const APPROVALS_DEFAULTS = { whenNobodyAsks: 'deny' } as const satisfies z.infer<
  typeof ApprovalsSchema
>;

/**
 * Cards that need two people (`twoPerson`): a card whose risk, tool (a name or glob) or deciding
 * rule's id is listed waits for two approvals from two distinct identities (signing keys).
 */
export const TwoPersonSchema = lazySchema((z) =>
  z
    .strictObject({
      risk: z.array(z.enum(['low', 'medium', 'high'])).optional(),
      tools: z.array(z.string().min(1, { error: 'expected a non-empty tool name or glob' })).optional(),
      rules: z.array(z.string().min(1, { error: 'expected a non-empty rule id' })).optional(),
    })
    .refine((t) => [t.risk, t.tools, t.rules].some((list) => list !== undefined && list.length > 0), {
      error: 'twoPerson needs at least one of risk, tools or rules',
    }),
);
export type TwoPersonRule = z.infer<typeof TwoPersonSchema>;

/**
 * The audit log's copy to an OpenTelemetry collector (OTLP/HTTP, JSON). The standard variables
 * (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT, …_HEADERS) win over these.
 */
export const AuditExportSchema = lazySchema((z) =>
  z.strictObject({
    /** `false`: no export, even where the OTEL_* variables name an endpoint. */
    enabled: z.boolean().optional(),
    /** The collector's logs URL, e.g. `http://collector:4318/v1/logs`. */
    endpoint: httpUrl.optional(),
    /** Sent with each request (an `Authorization` header, a tenant). */
    headers: stringMap.optional(),
  }),
);

export const AuditSchema = lazySchema((z) => z.strictObject({ export: AuditExportSchema.optional() }));

export const ModeSchema = lazySchema((z) => z.enum(MODES));
export const SandboxSchema = lazySchema((z) => z.enum(['auto', 'off', 'require']));
export type SandboxSetting = z.infer<typeof SandboxSchema>;

/**
 * `sandbox`: the mode alone (`"auto"`), or `{ "mode": "auto", "readPaths": ["/data/sets"], "network":
 * ["registry.npmjs.org"] }` — folders commands may read besides the project (read-only), and hosts a
 * command that names them may reach through warden's proxy without a card. Only the person's own
 * config.json may add either.
 */
export const SandboxObjectSchema = lazySchema((z) =>
  z.strictObject({
    mode: SandboxSchema.optional(),
    readPaths: z
      .array(
        z.string().refine((p) => p.startsWith('/') || p.startsWith('~/'), {
          error: 'expected an absolute path (or one starting with ~/)',
        }),
      )
      .max(64, { error: 'expected at most 64 folders' })
      .optional(),
    network: z
      .array(
        z.string().superRefine((entry, issue) => {
          const verdict = parseNetworkEntry(entry);
          if (!verdict.ok) issue.addIssue({ code: 'custom', message: verdict.error });
        }),
      )
      .max(MAX_NETWORK_ENTRIES, { error: `expected at most ${MAX_NETWORK_ENTRIES} hosts` })
      .optional(),
  }),
);

/** The mode string or the object, each validated as itself so an error names what is wrong. */
const sandboxFieldSchema = (z: Zod) =>
  pickedVariant<typeof SandboxSchema | typeof SandboxObjectSchema>(
    z,
    [SandboxSchema, SandboxObjectSchema],
    (value) => (typeof value === 'object' && value !== null ? SandboxObjectSchema : SandboxSchema),
  );

/**
 * `$WARDEN_HOME/config.json`, `<project>/.warden/config.json` and the managed `/etc/warden/config.json`
 * (which alone may set `MANAGED_ONLY_KEYS`, see managed.ts). Every field is optional (files
 * are layered); defaults live in `CONFIG_DEFAULTS`. Unknown keys are errors, so typos surface.
 * Each field's `description` is its line in README's settings table and in the JSON Schema editors
 * read (`assets/schema/config.schema.json`; both generated, see scripts/config-docs.ts).
 */
export const ConfigFileSchema = lazySchema((z) =>
  z.strictObject({
    /** Editors add it for completion; ignored. */
    $schema: z.string().optional(),
    model: z
      .string()
      .min(1, { error: 'expected a non-empty model name' })
      .optional()
      .meta({ description: 'model name' }),
    baseUrl: httpUrl.optional().meta({
      description: 'any OpenAI-compatible server (Ollama, vLLM, LM Studio, DeepSeek, Qwen)',
      shownDefault: 'OpenAI',
    }),
    mode: ModeSchema.optional().meta({
      description:
        '`manual`, `auto-edit` (writes inside the project allowed), `plan` (read-only), `auto` (asks only for high risk)',
    }),
    /** Longer than a day is refused: timers cannot hold much more (2^31 ms), and nobody waits that long. */
    approvalTimeoutSec: positiveInt(86_400)
      .optional()
      .meta({ description: 'a request without a decision fails closed as `timeout`' }),
    sandbox: sandboxFieldSchema(z).optional().meta({
      description:
        '`auto` uses bubblewrap when it works, `off`, or `require` (refuse to start without); or `{ "mode", "readPaths": [folders commands may read], "network": [hosts a command that names them reaches through warden\'s proxy without a card: `registry.npmjs.org`, `*.github.com`, `host:port`] }` (readPaths and network: your own config only)',
    }),
    maxStepsPerTurn: positiveInt(10_000)
      .optional()
      .meta({ description: 'model steps per turn before warden stops and says so' }),
    contextWindowTokens: positiveInt(100_000_000).optional().meta({
      description:
        "the model's window: the status bar's `ctx %`, the `/compact` offer near 90 %; history larger than this ends the turn with a clear message",
    }),
    /** How long one model answer may take, retries included, before the turn ends (seconds). */
    turnTimeoutSec: positiveInt(86_400)
      .optional()
      .meta({ description: 'the longest one model answer may take, retries included' }),
    /** How long a model stream may go without a byte of progress before the attempt ends (seconds). */
    streamIdleTimeoutSec: positiveInt(86_400).optional().meta({
      description:
        'a model answer with no byte of progress this long is stopped (tried once more if nothing was shown)',
    }),
    protectedPaths: z
      .array(z.string().min(1, { error: 'expected a non-empty pattern' }))
      .optional()
      .meta({
        description:
          "read-only for commands (the sandbox), high risk for every tool; a person's card lifts them for one run. Added to the defaults, never removed",
        shownDefault: '`.git/ .warden/ .github/workflows/ package.json` lock files `.env*`',
      }),
    webSearch: WebSearchSchema.optional().meta({
      description: '`{ "provider": "searxng", "url": "…" }`; without it warden offers no web search',
    }),
    mcpServers: z.record(serverName, mcpServerSchema(z)).optional().meta({
      description:
        '`{ "name": { "command", "args", "env" } }` or `{ "url", "headers" }` — the shape other MCP clients use',
    }),
    /** The review card at the end of a turn that changed files; only your own config may turn it off. */
    reviewTurns: z.boolean().optional().meta({
      description:
        'the review card at the end of a turn that changed files (only your own config can turn it off)',
    }),
    /** Escalation thresholds; a project's file may only lower them (stop sooner), never raise them. */
    escalation: EscalationSchema.optional().meta({
      description:
        'failed steps in a row / rejections of similar calls before an agent stops and escalates (a project may only lower them)',
      default: ESCALATION_DEFAULTS,
    }),
    /** Rule and preference offers; only your own config.json counts (a project's is ignored). */
    suggestions: SuggestionsSchema.optional().meta({
      description: 'when warden offers a rule or a preference line (your own config only)',
      default: { enabled: true, ...SUGGESTION_DEFAULTS },
    }),
    /** Notifications; only your own config.json counts (a project's would run a program of its choosing). */
    notify: NotifySchema.optional().meta({
      description:
        "how you are told when a card starts waiting, shortly before one expires, and when a turn ends: `method` `auto` (OSC 9 in iTerm2, WezTerm, Windows Terminal, kitty, ghostty; OSC 777 in VTE terminals, foot, Konsole; the bell elsewhere and inside tmux or screen), `osc9`, `osc777`, `bell`, `off`; `command` a program and its arguments given each notification as one JSON line on stdin (your own config only: a project's `notify` is ignored with a warning)",
      default: NOTIFY_DEFAULTS,
    }),
    /** Claude Code's hook format; a project's hooks count once the project is trusted. */
    hooks: HooksSchema.optional().meta({
      description:
        'programs that judge or hear tool calls, in Claude Code\'s format: `PreToolUse` (may only tighten: deny, or ask where policy allows), `PermissionRequest` (may answer a card where a person could, never a high-risk one), `PostToolUse`, `Notification`, `Stop`; each a list of `{ "matcher", "command", "timeout" }` or `{ "matcher", "hooks": [{ "type": "command", "command", "timeout" }] }`. Yours run as you; a project\'s count once you trust the project, and the files they name are protected (see "Hooks")',
    }),
    /** Where the audit log is copied; only your own config.json counts (a project's would send your log where it likes). */
    audit: AuditSchema.optional().meta({
      description:
        '`export`: `{ "endpoint": "http://collector:4318/v1/logs", "headers": { "Authorization": "Bearer …" }, "enabled": true }` copies every audit line to an OpenTelemetry collector (OTLP/HTTP logs, as `tool_decision` and `tool_result` events; the OTEL_EXPORTER_OTLP_* variables win over it, `enabled: false` turns it off; your own config only)',
    }),
    /** Cards nobody can answer; only your own config.json counts. */
    approvals: ApprovalsSchema.optional().meta({
      description:
        'what a headless run does with a card nobody is there to answer: `whenNobodyAsks` `deny` (the call fails as no_approver) or `park` (the run stops with the card waiting, exit code 5, until `warden approve ID` and `--resume SESSION`; `--on-ask` overrides it; your own config only)',
      default: APPROVALS_DEFAULTS,
    }),
    /** Managed config only: the modes nobody on this machine may start in or switch to. */
    lockModes: z.array(ModeSchema).optional().meta({
      description:
        'modes nobody may start in or switch to, e.g. `["auto"]` (the managed config only; in yours an error, in a project\'s ignored with a warning)',
    }),
    /** Managed config only: only the managed policy.json's rules count (and warden's built-in ones). */
    allowManagedRulesOnly: z.boolean().optional().meta({
      description:
        "only the managed policy.json's rules (and the built-in ones) count; yours and the project's are shown as ignored (the managed config only)",
    }),
    /** Managed config only: only hooks the managed config names run. */
    allowManagedHooksOnly: z.boolean().optional().meta({
      description:
        "only the managed config's hooks run; yours and the project's do not (the managed config only)",
    }),
    /** Cards that need two people; the managed config's or your own (a project's is ignored). */
    twoPerson: TwoPersonSchema.optional().meta({
      description:
        '`{ "risk": ["high"], "tools": [...], "rules": [...] }`: a matching card needs two approvals from two distinct identities, the second never the requester (the managed config or your own; a project\'s is ignored)',
    }),
  }),
);
/** A config file as read: `sandbox` split into its mode and `sandboxReadPaths` (read-file.ts does it). */
export type ConfigFile = Omit<z.infer<typeof ConfigFileSchema>, 'sandbox'> & {
  sandbox?: SandboxSetting;
  sandboxReadPaths?: string[];
  sandboxNetwork?: string[];
};

export const DEFAULT_MODEL = 'gpt-4.1-mini';

/**
 * Fields resolved by a rule of their own in load.ts (a union, the lower of two values, the person's
 * own file only); every other field of a config file is "the strongest layer wins".
 */
export type OwnRuleField =
  | 'protectedPaths'
  | 'mcpServers'
  | 'escalation'
  | 'suggestions'
  | 'notify'
  | 'approvals'
  | 'audit'
  | 'hooks'
  | 'sandboxReadPaths'
  | 'sandboxNetwork'
  | 'lockModes'
  | 'allowManagedRulesOnly'
  | 'allowManagedHooksOnly'
  | 'twoPerson';

/** The keys only the managed config (`/etc/warden/config.json`) may set. */
export const MANAGED_ONLY_KEYS = ['lockModes', 'allowManagedRulesOnly', 'allowManagedHooksOnly'] as const;

/**
 * Every "strongest layer wins" field with its default (`undefined`: none, the field stays unset). The
 * compiler holds it to the schema: a new field is here or an `OwnRuleField`. This table is also the
 * key list load.ts merges by, so reading it needs no zod.
 */
export const CONFIG_DEFAULTS = {
  model: DEFAULT_MODEL,
  baseUrl: undefined,
  mode: 'manual',
  approvalTimeoutSec: 600,
  sandbox: 'auto',
  maxStepsPerTurn: 50,
  contextWindowTokens: 128_000,
  turnTimeoutSec: 600,
  streamIdleTimeoutSec: 120,
  webSearch: undefined,
  reviewTurns: true,
} as const satisfies {
  [K in Exclude<keyof ConfigFile, OwnRuleField | '$schema'>]: ConfigFile[K] | undefined;
};
