import type { BuiltInCommand, CustomCommandInfo, Mode } from '../../src/protocol';

/** The modes in cycling order (mirrors the protocol; components import only types from src/). */
export const MODE_ORDER: readonly Mode[] = ['manual', 'auto-edit', 'plan', 'auto'];

/** The mode after `mode`, wrapping around, past the modes the managed config locks (`mode` itself if every other is). */
export function nextMode(mode: Mode, locked: readonly Mode[] = []): Mode {
  const at = MODE_ORDER.indexOf(mode);
  // The modes the managed config locks are skipped: the key never lands on one the core refuses.
  for (let step = 1; step <= MODE_ORDER.length; step++) {
    const next = MODE_ORDER[(at + step) % MODE_ORDER.length] ?? 'manual';
    if (!locked.includes(next)) return next;
  }
  return mode;
}

/** A slash command the prompt understands; pure data so /help and completion share it. */
export type SlashCommand = { name: string; usage: string; does: string; args?: readonly string[] };

/** The built-in commands: every name of the core's BUILT_IN_COMMANDS, and no other (a test checks). */
export const SLASH_COMMANDS: readonly (SlashCommand & { name: BuiltInCommand })[] = [
  { name: 'help', usage: '/help', does: 'keys and commands' },
  {
    name: 'mode',
    usage: '/mode [manual|auto-edit|plan|auto]',
    does: 'show or set the mode',
    args: MODE_ORDER,
  },
  { name: 'audit', usage: '/audit', does: 'browse the audit log by day' },
  { name: 'grants', usage: '/grants', does: 'list, revoke or save approve-all grants' },
  {
    name: 'policy',
    usage: '/policy [test COMMAND]',
    does: 'the mode and where rules come from; test: which rule decides COMMAND, without running it',
    args: ['test'],
  },
  { name: 'undo', usage: '/undo [n]', does: 'revert the last n turns (default 1)' },
  {
    name: 'init',
    usage: '/init',
    does: 'propose a first AGENTS.md for the project (a card shows it; nothing is replaced)',
  },
  {
    name: 'memory',
    usage: '/memory',
    does: 'the instruction files (AGENTS.md) in the prompt, with their size',
  },
  { name: 'clear', usage: '/clear', does: 'clear the conversation' },
  {
    name: 'compact',
    usage: '/compact',
    does: 'summarise the conversation with the model; you read the summary before it replaces the history',
  },
  {
    name: 'model',
    usage: '/model [NAME]',
    does: "switch the model for the next request; alone: the server's models",
  },
  { name: 'resume', usage: '/resume', does: 'pick a saved session of this project to resume' },
  { name: 'cancel', usage: '/cancel', does: 'cancel the running turn' },
  {
    name: 'pause',
    usage: '/pause',
    does: 'pause every agent (Ctrl+P); then !command runs as you, text is a note',
  },
  { name: 'go', usage: '/go [note]', does: 'resume the paused agents, with an optional note (Ctrl+P)' },
  { name: 'plan', usage: '/plan', does: "edit the plan's steps (the agents are told)" },
  { name: 'mcp', usage: '/mcp', does: 'MCP servers; r restarts the selected one' },
  { name: 'quit', usage: '/quit', does: 'quit warden' },
];

/** The custom commands the prompt offers (hidden ones are left out), as rows of the command table. */
export function customSlash(custom: readonly CustomCommandInfo[] | undefined): SlashCommand[] {
  return (custom ?? [])
    .filter((c) => !c.hidden)
    .map((c) => ({
      name: c.name,
      usage: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`,
      does: `${c.description ?? 'a prompt from a command file'} (${c.source === 'user' ? 'yours' : 'project'})`,
    }));
}

/** The built-in commands, then the custom ones. */
export function allCommands(custom: readonly CustomCommandInfo[] | undefined): readonly SlashCommand[] {
  const extra = customSlash(custom);
  return extra.length ? [...SLASH_COMMANDS, ...extra] : SLASH_COMMANDS;
}

/** `/mode plan` → { name: 'mode', args: ['plan'] }; not a slash command → undefined. */
export function parseSlash(text: string): { name: string; args: string[] } | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const [head = '', ...args] = trimmed.slice(1).split(/\s+/);
  return { name: head.toLowerCase(), args: args.filter(Boolean) };
}

export type Completion = {
  /** Names (for the command word) or values (for an argument) matching what was typed. */
  matches: string[];
  /** The input after Tab, or undefined when Tab can't add anything. */
  completed?: string;
};

const commonPrefix = (words: string[]): string =>
  words.reduce((prefix, w) => {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i] === w[i]) i++;
    return prefix.slice(0, i);
  }, words[0] ?? '');

/**
 * Completion for the prompt: the command word while no space was typed, else the first argument
 * of a command with known values. A unique match completes fully (plus a space after a command);
 * several matches complete to their longest common prefix.
 */
export function complete(input: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): Completion {
  if (!input.startsWith('/')) return { matches: [] };
  const space = input.indexOf(' ');
  if (space === -1) {
    const typed = input.slice(1).toLowerCase();
    const matches = commands.filter((c) => c.name.startsWith(typed)).map((c) => c.name);
    if (matches.length === 1) return { matches, completed: `/${matches[0]} ` };
    // A whole name typed completes to itself where a longer one shares it (/mode and /model).
    if (matches.includes(typed)) return { matches, completed: `/${typed} ` };
    const prefix = commonPrefix(matches);
    return { matches, completed: prefix.length > typed.length ? `/${prefix}` : undefined };
  }
  const command = commands.find((c) => c.name === input.slice(1, space).toLowerCase());
  const rest = input.slice(space + 1);
  if (!command?.args || rest.includes(' ')) return { matches: [] };
  const matches = command.args.filter((a) => a.startsWith(rest));
  const head = input.slice(0, space + 1);
  if (matches.length === 1 && matches[0] !== rest) return { matches, completed: `${head}${matches[0]}` };
  const prefix = commonPrefix(matches);
  return { matches, completed: prefix.length > rest.length ? `${head}${prefix}` : undefined };
}
