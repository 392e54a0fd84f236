import { type CheckpointStore, createCheckpointStore } from '../../agent/checkpoints';
import type { CoreState } from '../../protocol';
import { removeFileSafely, writeFileSafely } from '../../tools/fs/safe-fs';
import { homePatternsInProject } from '../../trust/home-in-project';
import type { SessionState } from '../session-state';

/**
 * The turn's checkpoints: a shadow git repository of the project (commands' changes included), else
 * copies of warden's own writes — said on the first screen and in `warnings` (headless prints them).
 * A revert writes and removes project files through verified folders, like write_file (safe-fs.ts).
 */
export function wireCheckpoints(d: {
  home: string;
  root: string;
  sessionId: string;
  git?: string | null | undefined;
  state: CoreState;
  view: SessionState;
  warnings: string[];
}): CheckpointStore {
  const { root } = d;
  const checkpoints = createCheckpointStore({
    home: d.home,
    root,
    sessionId: d.sessionId,
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
    exclude: homePatternsInProject(d.home, root).map((p) => p.replace(/^\/|\/$/g, '')),
    ...(d.git !== undefined ? { git: d.git } : {}),
  });
  d.state.checkpoints =
    checkpoints.mode.kind === 'git' ? { kind: 'git' } : { kind: 'copies', reason: checkpoints.mode.reason };
  if (checkpoints.mode.kind === 'copies') {
    const text = `Checkpoints: ${checkpoints.mode.reason}, so /undo and the turn review cover only warden's own file writes, not what commands change, and not after a restart.`;
    d.view.notice('warn', text);
    d.warnings.push(text);
  }
  return checkpoints;
}
