import { useCallback } from 'react';
import type { CoreClient, CustomCommandInfo, Mode } from '../../src/protocol';
import { MODE_ORDER, parseSlash } from '../widgets/slash-commands';
import type { PromptMessage } from '../widgets/PromptInput';

export type OverlayKind =
  | 'none'
  | 'help'
  | 'audit'
  | 'grants'
  | 'policy'
  | 'mcp'
  | 'sessions'
  | 'plan'
  | 'memory';

type Deps = {
  client: CoreClient;
  mode: Mode;
  openOverlay: (kind: OverlayKind) => void;
  say: (message: PromptMessage | undefined) => void;
  quit: () => void;
  /** Agents are paused: a plain line is a note for them, not a new prompt. */
  paused?: boolean;
  /** The custom commands (`/name args` runs one; a built-in name is never one of them). */
  custom?: readonly CustomCommandInfo[];
};

/**
 * What Enter in the prompt does: a plain prompt is sent as `submit` (the core decides whether a
 * busy session accepts it); `/command` runs here; `//text` sends "/text" as a prompt.
 */
export function useSlashCommands({
  client,
  mode,
  openOverlay,
  say,
  quit,
  paused,
  custom,
}: Deps): (text: string) => void {
  return useCallback(
    (text: string) => {
      say(undefined);
      // `!command` runs as the person, through the gate; the core refuses it while an agent runs unpaused.
      if (text.startsWith('!')) {
        const command = text.slice(1).trim();
        if (command) client.send({ type: 'run_as_person', command });
        return;
      }
      if (paused && !text.startsWith('/')) {
        client.send({ type: 'add_note', text });
        return;
      }
      if (text.startsWith('//') || !text.startsWith('/')) {
        client.send({ type: 'submit', text: text.startsWith('//') ? text.slice(1) : text });
        return;
      }
      const { name, args } = parseSlash(text) ?? { name: '', args: [] };
      const arg = args[0];
      switch (name) {
        case 'policy': {
          if (arg === undefined) return openOverlay('policy');
          if (arg.toLowerCase() !== 'test')
            return say({ level: 'warn', text: `/policy takes "test COMMAND", not "${arg}"` });
          const command = text
            .trim()
            .replace(/^\/policy\s+test\b/i, '')
            .trim();
          if (!command)
            return say({ level: 'warn', text: '/policy test needs a command: /policy test npm test' });
          return client.send({ type: 'test_policy', command });
        }
        case 'help':
        case 'audit':
        case 'grants':
        case 'mcp':
        case 'memory':
          return openOverlay(name);
        case 'init':
          return client.send({ type: 'init_instructions' });
        case 'resume':
          return openOverlay('sessions');
        case 'mode': {
          if (arg === undefined)
            return say({
              level: 'info',
              text: `mode is ${mode} · /mode ${MODE_ORDER.join('|')} · Shift+Tab cycles`,
            });
          const next = MODE_ORDER.find((m) => m === arg.toLowerCase());
          if (!next)
            return say({ level: 'warn', text: `unknown mode "${arg}" — one of ${MODE_ORDER.join(', ')}` });
          client.send({ type: 'set_mode', mode: next });
          // The status bar shows the mode the core actually switched to.
          return say({ level: 'info', text: `switching to ${next} mode` });
        }
        case 'undo': {
          const turns = arg === undefined ? 1 : Number(arg);
          if (!Number.isInteger(turns) || turns < 1)
            return say({ level: 'warn', text: `/undo takes a positive number of turns, not "${arg}"` });
          client.send({ type: 'undo', turns });
          return;
        }
        case 'clear':
          return client.send({ type: 'clear' });
        case 'compact':
          return client.send({ type: 'compact' });
        case 'model':
          // The core answers both with a notice: the switch, or the server's list (or why there is none).
          return client.send(arg === undefined ? { type: 'list_models' } : { type: 'set_model', name: arg });
        case 'cancel':
          return client.send({ type: 'cancel' });
        case 'pause':
          return client.send({ type: 'pause' });
        case 'go': {
          const note = text.trim().slice('/go'.length).trim();
          return client.send(note ? { type: 'resume', note } : { type: 'resume' });
        }
        case 'plan':
          return openOverlay('plan');
        case 'quit':
          return quit();
        default:
          // A custom command (the core says why when it is held back: the project is not trusted).
          if (custom?.some((c) => c.name === name && c.hidden !== 'built-in'))
            return client.send({
              type: 'run_command',
              name,
              args: text
                .trim()
                .slice(name.length + 1)
                .trim(),
            });
          return say({
            level: 'warn',
            text: `unknown command /${name} — /help lists the commands (//text sends "/text" as a prompt)`,
          });
      }
    },
    [client, mode, openOverlay, say, quit, paused, custom],
  );
}
