import type { HooksConfig } from '../../config/hooks-schema';
import { DEFAULT_PROTECTED_PATHS, PathFence } from '../../policy/guards/path-guard';
import type { ProjectSnapshot } from '../../policy/project-files';
import { homeHiddenPaths, homePatternsInProject } from '../../trust/home-in-project';
import { sealedHookFiles } from './hooks-wiring';

/**
 * The session's path fence. WARDEN_HOME inside the project is protected like .warden: a write there is a
 * high-risk card. Whatever the root, no tool reads the records in WARDEN_HOME (other projects' sessions,
 * the audit), nor touches the managed folder; no call writes what a hook runs (it runs outside the
 * sandbox).
 */
export function sessionFence(d: {
  root: string;
  home: string;
  protectedPaths?: readonly string[] | undefined;
  hooks?: HooksConfig | undefined;
  managedDir: string;
  snapshot: ProjectSnapshot;
}): PathFence {
  return new PathFence(
    d.root,
    [...DEFAULT_PROTECTED_PATHS, ...(d.protectedPaths ?? []), ...homePatternsInProject(d.home, d.root)],
    {
      hidden: homeHiddenPaths(d.home, d.root),
      managed: [d.managedDir],
      sealed: sealedHookFiles(d.hooks, d.snapshot, d.snapshot.root, d.home),
    },
  );
}
