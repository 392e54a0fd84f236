/**
 * The `hooks` field of a config file, in Claude Code's format (flat or nested entries per event); its
 * own file beside schema.ts, which holds every other field.
 */
import type { z } from 'zod';
import { lazySchema } from '../lazy-zod';
import { pickedVariant } from './schema-variants';

/** zod's `z`, as the builders of lazy schemas receive it. */
type Zod = typeof z;

/**
 * The hook events warden runs, by Claude Code's names: before a call is judged (`PreToolUse`, which may
 * only tighten), when a card is about to wait for a person (`PermissionRequest`, which may answer it
 * where a person could), after a call ran (`PostToolUse`), when warden notifies (`Notification`), and
 * at the end of a turn (`Stop`).
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Notification',
  'Stop',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** A hook's shell command and the seconds it may run (Claude Code counts its `timeout` in seconds). */
const hookCommand = lazySchema((z) => z.string().min(1, { error: 'expected a non-empty command' }).max(8192));
const hookTimeout = lazySchema((z) =>
  z
    .number()
    .int({ error: 'expected a whole number' })
    .positive({ error: 'expected a positive whole number' })
    .max(600, { error: 'expected at most 600' }),
);
/** How the audit names the hook (`approver: "hook:<name>"`); by default the script's file name. */
const hookName = lazySchema((z) =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
    error: 'a hook name uses letters, digits, ".", "_" and "-" (at most 64)',
  }),
);
const hookMatcher = lazySchema((z) => z.string().max(2000, { error: 'expected at most 2000 characters' }));

/** One hook inside Claude Code's nested shape: `{ "type": "command", "command", "timeout" }`. */
export const HookCommandSchema = lazySchema((z) =>
  z.strictObject({
    type: z.literal('command', { error: 'expected "command" (warden runs command hooks only)' }).optional(),
    command: hookCommand,
    timeout: hookTimeout.optional(),
    name: hookName.optional(),
  }),
);

/** Claude Code's shape: a matcher and the hooks it runs, `{ "matcher": "Bash", "hooks": [ … ] }`. */
export const HookMatcherSchema = lazySchema((z) =>
  z.strictObject({ matcher: hookMatcher.optional(), hooks: z.array(HookCommandSchema).min(1).max(32) }),
);

/** The flat shape: `{ "matcher": "Bash", "command": "…", "timeout": 10 }`. */
export const HookFlatSchema = lazySchema((z) =>
  z.strictObject({
    matcher: hookMatcher.optional(),
    command: hookCommand,
    timeout: hookTimeout.optional(),
    name: hookName.optional(),
  }),
);

export type HookMatcherEntry = z.infer<typeof HookMatcherSchema>;
export type HookFlatEntry = z.infer<typeof HookFlatSchema>;
export type HookEntry = HookMatcherEntry | HookFlatEntry;

/** A hook entry in either shape, validated as the one its keys pick (`hooks` → the nested one). */
const hookEntrySchema = (z: Zod) =>
  pickedVariant<typeof HookMatcherSchema | typeof HookFlatSchema>(
    z,
    [HookMatcherSchema, HookFlatSchema],
    (value) =>
      typeof value === 'object' && value !== null && 'hooks' in value ? HookMatcherSchema : HookFlatSchema,
  );

/** `hooks` of a config file: each event's entries, in order. */
export const HooksSchema = lazySchema((z) =>
  z.strictObject(
    Object.fromEntries(
      HOOK_EVENTS.map((event) => [event, z.array(hookEntrySchema(z)).max(64).optional()]),
    ) as Record<HookEventName, z.ZodOptional<z.ZodArray<ReturnType<typeof hookEntrySchema>>>>,
  ),
);
export type HooksConfig = Partial<Record<HookEventName, HookEntry[]>>;
