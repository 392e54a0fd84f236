import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import {
  type SandboxLayout,
  bwrapArgs,
  defaultLayout,
  findOnPath,
  type SandboxMask,
} from '../../src/tools/exec/sandbox';
import type { ProtectMounts } from '../../src/tools/exec/sandbox';

export const bwrapPath = process.platform === 'linux' ? findOnPath('bwrap') : undefined;

/**
 * Runs `argv` in a sandbox built as execute_command builds it (the host view, masks, protections,
 * the seccomp filter on fd 3), synchronously. For tests that exercise the mounts without the tool.
 */
export function runSandboxedSync(
  root: string,
  argv: string[],
  o: {
    cwd?: string;
    masks?: SandboxMask[];
    protect?: ProtectMounts;
    layout?: SandboxLayout;
    env?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): SpawnSyncReturns<string> {
  const layout = o.layout ?? defaultLayout(root);
  const filter = layout.state.seccomp ? openSync(layout.state.seccomp, 'r') : undefined;
  try {
    return spawnSync(
      bwrapPath as string,
      [...bwrapArgs(root, o.cwd ?? root, o.masks ?? [], o.protect, layout), ...argv],
      {
        env: o.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        encoding: 'utf8',
        timeout: o.timeoutMs ?? 15_000,
        stdio: filter === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', filter],
      },
    );
  } finally {
    if (filter !== undefined) closeSync(filter);
  }
}
