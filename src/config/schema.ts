import type { z } from 'zod';
import { lazySchema, zod } from '../lazy-zod';
import { MODES } from '../protocol';

/** An http(s) URL; other schemes (file:, javascript:, ftp:) are refused. */
const httpUrl = lazySchema((z) => z.url({ protocol: /^https?$/, error: 'expected an http or https URL' }));

const positiveInt = (max: number) =>
  zod()
    .number()
    .int({ error: 'expected a whole number' })
    .positive({ error: 'expected a positive whole number' })
    .max(max, { error: `expected at most ${max}` });

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
export const McpServerSchema = lazySchema((z) =>
  z.unknown().transform((value, ctx): McpServerConfig => {
    const isHttp = typeof value === 'object' && value !== null && 'url' in value && !('command' in value);
    const parsed = (isHttp ? McpHttpServerSchema : McpStdioServerSchema).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: undefined });
    return z.NEVER;
  }),
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

/** What a card does when nobody is there to decide (a headless run): fail closed, or park the run. */
export const ApprovalsSchema = lazySchema((z) =>
  z.strictObject({
    /** `deny` (the default): the call fails as no_approver; `park`: the run stops with it waiting (exit 5). */
    whenNobodyAsks: z.enum(['deny', 'park']).optional(),
  }),
);

export const ModeSchema = lazySchema((z) => z.enum(MODES));
export const SandboxSchema = lazySchema((z) => z.enum(['auto', 'off', 'require']));
export type SandboxSetting = z.infer<typeof SandboxSchema>;

/**
 * `sandbox`: the mode alone (`"auto"`), or `{ "mode": "auto", "readPaths": ["/data/sets"] }` — folders
 * commands may read besides the project (read-only). Only the person's own config.json may add them.
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
  }),
);

/** The mode string or the object, each validated as itself so an error names what is wrong. */
const SandboxFieldSchema = lazySchema((z) =>
  z.unknown().transform((value, ctx): SandboxSetting | z.infer<typeof SandboxObjectSchema> => {
    const parsed = (
      typeof value === 'object' && value !== null ? SandboxObjectSchema : SandboxSchema
    ).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: undefined });
    return z.NEVER;
  }),
);

/**
 * `$WARDEN_HOME/config.json` and `<project>/.warden/config.json`. Every field is optional (files
 * are layered); defaults live in `CONFIG_DEFAULTS`. Unknown keys are errors, so typos surface.
 */
export const ConfigFileSchema = lazySchema((z) =>
  z.strictObject({
    /** Editors add it for completion; ignored. */
    $schema: z.string().optional(),
    model: z.string().min(1, { error: 'expected a non-empty model name' }).optional(),
    baseUrl: httpUrl.optional(),
    mode: ModeSchema.optional(),
    /** Longer than a day is refused: timers cannot hold much more (2^31 ms), and nobody waits that long. */
    approvalTimeoutSec: positiveInt(86_400).optional(),
    sandbox: SandboxFieldSchema.optional(),
    maxStepsPerTurn: positiveInt(10_000).optional(),
    contextWindowTokens: positiveInt(100_000_000).optional(),
    /** How long one model answer may take, retries included, before the turn ends (seconds). */
    turnTimeoutSec: positiveInt(86_400).optional(),
    /** How long a model stream may go without a byte of progress before the attempt ends (seconds). */
    streamIdleTimeoutSec: positiveInt(86_400).optional(),
    protectedPaths: z.array(z.string().min(1, { error: 'expected a non-empty pattern' })).optional(),
    webSearch: WebSearchSchema.optional(),
    mcpServers: z.record(serverName, McpServerSchema).optional(),
    /** The review card at the end of a turn that changed files; only your own config may turn it off. */
    reviewTurns: z.boolean().optional(),
    /** Escalation thresholds; a project's file may only lower them (stop sooner), never raise them. */
    escalation: EscalationSchema.optional(),
    /** Rule and preference offers; only your own config.json counts (a project's is ignored). */
    suggestions: SuggestionsSchema.optional(),
    /** Notifications; only your own config.json counts (a project's would run a program of its choosing). */
    notify: NotifySchema.optional(),
    /** Cards nobody can answer (headless); only your own config.json counts. */
    approvals: ApprovalsSchema.optional(),
  }),
);
/** A config file as read: `sandbox` split into its mode and `sandboxReadPaths` (read-file.ts does it). */
export type ConfigFile = Omit<z.infer<typeof ConfigFileSchema>, 'sandbox'> & {
  sandbox?: SandboxSetting;
  sandboxReadPaths?: string[];
};

/** The known keys of each object in a config file, for "did you mean" hints. */
export const KNOWN_KEYS = {
  // Getters: read only when a file has an unknown key, so reading this module builds no schema.
  get root() {
    return Object.keys(ConfigFileSchema.shape);
  },
  get webSearch() {
    return Object.keys(WebSearchSchema.shape);
  },
  get escalation() {
    return Object.keys(EscalationSchema.shape);
  },
  get suggestions() {
    return Object.keys(SuggestionsSchema.shape);
  },
  get notify() {
    return Object.keys(NotifySchema.shape);
  },
  get approvals() {
    return Object.keys(ApprovalsSchema.shape);
  },
  get sandbox() {
    return Object.keys(SandboxObjectSchema.shape);
  },
  get mcpServer() {
    return [
      ...new Set([...Object.keys(McpStdioServerSchema.shape), ...Object.keys(McpHttpServerSchema.shape)]),
    ];
  },
};

export const DEFAULT_MODEL = 'gpt-4.1-mini';

export const CONFIG_DEFAULTS = {
  model: DEFAULT_MODEL,
  mode: 'manual',
  approvalTimeoutSec: 600,
  sandbox: 'auto',
  maxStepsPerTurn: 50,
  contextWindowTokens: 128_000,
  turnTimeoutSec: 600,
  streamIdleTimeoutSec: 120,
  reviewTurns: true,
} as const satisfies Partial<ConfigFile>;

/** The escalation thresholds when no file sets them. */
export const ESCALATION_DEFAULTS = { failures: 3, rejections: 2 } as const satisfies Required<
  NonNullable<ConfigFile['escalation']>
>;
