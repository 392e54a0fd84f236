import type { CoreEvent } from '../../protocol';
import type { LoadedSession } from '../saved/session-resume';
import { type SessionRecorder, createSessionRecorder } from '../saved/store';
import type { SessionSettings } from '../session-settings';

/**
 * The conversation and its events go to $WARDEN_HOME/sessions/ as they happen (saved/store.ts); a
 * session that cannot be saved goes on and says so once.
 */
export function wireRecorder(d: {
  home: string;
  sessionId: string;
  root: string;
  model: string;
  settings: SessionSettings;
  loaded: LoadedSession | undefined;
  emit: (event: CoreEvent) => void;
}): SessionRecorder {
  const { loaded } = d;
  return createSessionRecorder({
    home: d.home,
    sessionId: d.sessionId,
    root: d.root,
    model: d.model,
    mode: () => d.settings.mode,
    onError: (err) =>
      d.emit({
        type: 'notice',
        level: 'warn',
        code: 'session_unsaved',
        text: `This session cannot be saved (${err.message}); it goes on, but cannot be resumed later.`,
      }),
    ...(loaded ? { resumed: loaded.summary, recorded: loaded.restored.history.length } : {}),
  });
}
