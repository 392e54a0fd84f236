// What the least-privilege view costs a sandboxed command (issue 26): `true` under bubblewrap with
// the layout of the last round (the host's `/` bound read-only, the home's credential folders and
// socket folders hidden) against this round's view (system folders, a private /tmp and home with
// toolchains and caches, WARDEN_HOME hidden, the seccomp filter), in the same run, alternating;
// and execute_command end to end (plan, mounts, run, notes) on a small project.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathFence } from '../src/policy/guards/path-guard';
import { createExecuteCommandTool } from '../src/tools/exec/execute-command';
import { bwrapArgs, defaultLayout, findOnPath } from '../src/tools/exec/sandbox';
import type { ToolContext } from '../src/tools/types';
import { median, printRow } from './stats';

const bwrap = findOnPath('bwrap');
if (!bwrap) {
  console.log('bwrap is not installed: nothing to measure');
  process.exit(0);
}
const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-view-bench-')));
const root = join(base, 'proj');
mkdirSync(join(root, 'src'), { recursive: true });
for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `f${i}.ts`), 'export {};\n');
writeFileSync(join(root, 'package.json'), '{}');
writeFileSync(join(root, '.env'), 'K=1\n');

// Last round's layout: `/` read-only and the old home masks, rebuilt here as it was (sandbox.ts, issue 16).
const home = process.env.HOME ?? '/root';
const homeMasks = ['.ssh', '.aws', '.gnupg', '.config/gh']
  .map((rel) => join(home, rel))
  .filter((path) => existsSync(path) && statSync(path).isDirectory())
  .flatMap((path) => ['--tmpfs', path]);
const legacyArgs = [
  ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', root, root],
  ...homeMasks,
  ...[
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--chdir',
    root,
    'true',
  ],
];

const layout = defaultLayout(root);
const viewArgs = [...bwrapArgs(root, root, [], undefined, layout), 'true'];
const runView = () => {
  const fd = layout.state.seccomp ? openSync(layout.state.seccomp, 'r') : undefined;
  try {
    execFileSync(bwrap, viewArgs, {
      stdio: fd === undefined ? 'ignore' : ['ignore', 'ignore', 'ignore', fd],
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};
const runLegacy = () => execFileSync(bwrap, legacyArgs, { stdio: 'ignore' });
runView();
runLegacy();
const old: number[] = [];
const now: number[] = [];
for (let i = 0; i < 40; i++) {
  let t = performance.now();
  runLegacy();
  old.push(performance.now() - t);
  t = performance.now();
  runView();
  now.push(performance.now() - t);
}
printRow('bwrap true, last round’s layout (/ read-only), median', `${median(old).toFixed(1)} ms`);
printRow('bwrap true, this round’s view + seccomp, median', `${median(now).toFixed(1)} ms`);
printRow('view / last round', `${(median(now) / median(old)).toFixed(2)}× (goal ≤ 1.5×)`);
printRow('view mounts (arguments)', `${viewArgs.length}`);

const tool = createExecuteCommandTool();
const ctx: ToolContext = {
  root,
  fence: new PathFence(root),
  commands: { judge: () => ({ kind: 'ok', parts: [], readOnly: true, destructive: [], notes: [] }) },
  sandbox: { kind: 'bwrap', path: bwrap },
  signal: new AbortController().signal,
};
await tool.execute({ command: 'true' }, ctx);
const ends: number[] = [];
for (let i = 0; i < 30; i++) {
  const t = performance.now();
  await tool.execute({ command: 'true' }, ctx);
  ends.push(performance.now() - t);
}
printRow('execute_command `true` end to end (200-file project), median', `${median(ends).toFixed(1)} ms`);
printRow('end to end / bare view', `${(median(ends) / median(now)).toFixed(2)}×`);
rmSync(base, { recursive: true, force: true });
