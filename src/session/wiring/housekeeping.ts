import { join } from 'node:path';
import type { CoreEvent } from '../../protocol';
import { recordRunsIn, sweepLeftoverRuns } from '../../tools/exec/run-ledger';
import { sweepStaleTemps } from '../../tools/fs/safe-fs-sweep';

type Emit = (event: CoreEvent) => void;

/**
 * Commands carry a run id; a run a killed warden left behind is ended now (run-ledger.ts).
 * Resolves once the sweep is done (shutdown waits for it). Contract: never rejects.
 */
export function endLeftoverRuns(home: string, emit: Emit): Promise<void> {
  recordRunsIn(join(home, 'runs'));
  return sweepLeftoverRuns(join(home, 'runs')).then(({ runs, processes }) => {
    if (processes > 0)
      emit({
        type: 'notice',
        level: 'warn',
        text: `Stopped ${processes} process${processes === 1 ? '' : 'es'} left running by ${runs} command${runs === 1 ? '' : 's'} of an earlier warden that did not shut down.`,
      });
  });
}

/** Temp files of writes that a crash interrupted (kill -9 mid-write) must not linger for `git add -A`. */
export function sweepInterruptedWrites(root: string, emit: Emit): void {
  void sweepStaleTemps(root).then((swept) => {
    if (swept.removed.length > 0)
      emit({
        type: 'notice',
        level: 'info',
        text: `Removed ${swept.removed.length} temp file(s) an interrupted write left behind: ${swept.removed.slice(0, 5).join(', ')}.`,
      });
  });
}
