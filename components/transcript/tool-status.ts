import type { ToolCardStatus } from '../../src/protocol';
import type { Theme } from '../look/theme';

type Look = { glyph: string; label: string; color: keyof Omit<Theme, 'noColor'> | undefined };

/** Glyph, word and color of each tool status; the word is always shown, so color is optional. */
const LOOKS: Record<ToolCardStatus, Look> = {
  running: { glyph: '◐', label: 'running', color: 'info' },
  waiting: { glyph: '⏸', label: 'waiting for approval', color: 'warn' },
  executed: { glyph: '✓', label: 'executed', color: 'ok' },
  rejected: { glyph: '✗', label: 'rejected', color: 'error' },
  blocked: { glyph: '⊘', label: 'blocked', color: 'error' },
  skipped: { glyph: '»', label: 'skipped', color: undefined },
  // The person stopped it (cancel, Esc, Ctrl+C): not a failure of the call.
  cancelled: { glyph: '■', label: 'stopped', color: 'warn' },
  timeout: { glyph: '⧗', label: 'timed out', color: 'warn' },
  error: { glyph: '!', label: 'error', color: 'error' },
};

/** How a tool status looks under `theme`. */
export function statusLook(
  status: ToolCardStatus,
  theme: Theme,
): { glyph: string; label: string; color?: string } {
  const look = LOOKS[status];
  return { glyph: look.glyph, label: look.label, color: look.color ? theme[look.color] : undefined };
}

/** Finished statuses never change again, so such a card may move into <Static>. */
export function isFinalStatus(status: ToolCardStatus): boolean {
  return status !== 'running' && status !== 'waiting';
}
