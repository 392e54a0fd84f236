import type { CoreCommand, CoreEvent } from '../../protocol';
import { listSessions } from '../saved/store-index';

/**
 * /resume's list, and its choice handed to the app (which starts the chosen session in place of this
 * one). Refused without an app, while a turn runs, for this very session or one that is not saved here.
 */
export function sessionsCommand(
  c: Extract<CoreCommand, { type: 'list_sessions' | 'resume_session' }>,
  d: {
    home: string;
    root: string;
    sessionId: string;
    busy: boolean;
    onResume?: ((sessionId: string) => void) | undefined;
    emit: (event: CoreEvent) => void;
  },
): void {
  if (c.type === 'list_sessions')
    return d.emit({ type: 'sessions_listed', sessions: listSessions(d.home, d.root) });
  const refusal = !d.onResume
    ? 'Resuming another session needs the app (warden --continue or --resume).'
    : d.busy
      ? 'A turn is running: wait for it or cancel it (Esc) before resuming another session.'
      : c.id === d.sessionId
        ? 'That is this session.'
        : !listSessions(d.home, d.root).some((s) => s.id === c.id)
          ? `There is no saved session ${c.id} for this project.`
          : undefined;
  if (refusal) return d.emit({ type: 'notice', level: 'warn', text: refusal });
  d.onResume?.(c.id);
}
