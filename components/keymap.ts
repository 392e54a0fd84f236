/**
 * The app's global key bindings in one place, so /help, the prompt's chord guard and the
 * handlers can't drift apart.
 */

/**
 * Ctrl+<letter> chords the app handles itself. ink-text-input would otherwise insert the letter
 * (Ink reports Ctrl+A as input "a" with key.ctrl), so the prompt swallows these.
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
