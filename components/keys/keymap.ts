/**
 * The app's global key bindings in one place, so /help and the handlers can't drift apart.
 */

/**
 * Ctrl+<letter> chords the app handles itself. Ink reports Ctrl+T as input "t" with key.ctrl;
 * TextField never types the letter of a chord, and keeps Ctrl+A/E/U/W for editing.
 */
export const CHORDS = {
  /** Audit sidebar on/off. */
  sidebar: 't',
  /** Sub-agent group collapsed/expanded. */
  agents: 'g',
} as const;

export type HelpRow = { keys: string; does: string };

export const KEY_HELP: HelpRow[] = [
  { keys: 'Enter', does: 'send the prompt (or run a /command)' },
  { keys: '↑ / ↓', does: 'previous / next submitted prompt' },
  { keys: 'Tab', does: 'complete a /command or its argument' },
  { keys: 'Shift+Tab', does: 'cycle the mode (manual → auto-edit → plan → auto)' },
  { keys: 'Esc', does: 'cancel the running turn; close a panel' },
  { keys: 'Ctrl+T', does: 'show / hide the audit trail sidebar (latest decisions)' },
  { keys: 'Ctrl+G', does: 'collapse / expand the sub-agent group' },
  { keys: 'Ctrl+C ×2', does: 'quit (press twice within 2 s)' },
];
