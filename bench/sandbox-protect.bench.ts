// What protecting .git, .warden and the protected paths costs a sandboxed command: the scan of a
// 20,000-file project (plus a 20,000-file node_modules it skips), the placeholder claim and release,
// and a whole `true` under bubblewrap with and without the protection mounts.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PROTECTED_PATHS } from '../src/policy/guards/path-guard';
import { bwrapArgs, defaultLayout, findOnPath } from '../src/tools/exec/sandbox';
import { MountPointLedger } from '../src/tools/exec/sandbox-mount-points';
import { planProtection } from '../src/tools/exec/sandbox-protect';
import { median, percentile, printRow, timeRuns } from './stats';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-protect-bench-')));
const root = join(base, 'proj');
// 200 folders × 100 files, 20 packages each with a package.json and a nested .git file, and a skipped node_modules.
for (let d = 0; d < 200; d++) {
  const dir = join(root, 'src', `m${d % 20}`, `d${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 100; f++) writeFileSync(join(dir, `f${f}.ts`), '');
}
for (let p = 0; p < 20; p++) {
  writeFileSync(join(root, 'src', `m${p}`, 'package.json'), '{}');
  writeFileSync(join(root, 'src', `m${p}`, '.git'), 'gitdir: ../../.git/modules/x');
}
mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
writeFileSync(join(root, 'package.json'), '{}');
for (let d = 0; d < 200; d++) {
  const dir = join(root, 'node_modules', `p${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 100; f++) writeFileSync(join(dir, `f${f}.js`), '');
}

const plan = planProtection(root, DEFAULT_PROTECTED_PATHS);
const scan = await timeRuns(30, () => planProtection(root, DEFAULT_PROTECTED_PATHS));
printRow('entries scanned (node_modules skipped)', `${plan.scanned}`);
printRow(
  'mounts: read-only / pinned / masked / watched',
  `${plan.readOnly.length} / ${plan.pinned.length} / ${plan.masked.length} / ${plan.watched.length}`,
);
printRow(
  'scan + plan, median (p95)',
  `${median(scan).toFixed(1)} ms (${percentile(scan, 95).toFixed(1)} ms)`,
);
const ledger = new MountPointLedger(join(base, 'ledger'));
const claim = await timeRuns(30, () => {
  const c = ledger.claim(plan.placeholders);
  if (c.ok) c.claim.release();
});
printRow('placeholder claim + release, median', `${median(claim).toFixed(2)} ms`);

const bwrap = findOnPath('bwrap');
if (bwrap) {
  const layout = defaultLayout(root);
  // bwrap reads the seccomp filter on fd 3, as execute_command hands it over.
  const run = (args: string[]) => {
    const fd = layout.state.seccomp ? openSync(layout.state.seccomp, 'r') : undefined;
    try {
      execFileSync(bwrap, args, { stdio: fd === undefined ? 'ignore' : ['ignore', 'ignore', 'ignore', fd] });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
  const bare = await timeRuns(20, () => run([...bwrapArgs(root, root, [], undefined, layout), 'true']));
  const c = ledger.claim(plan.placeholders);
  const guarded = await timeRuns(20, () =>
    run([...bwrapArgs(root, root, plan.masked, plan, layout), 'true']),
  );
  if (c.ok) c.claim.release();
  printRow('bwrap true, legacy mounts, median', `${median(bare).toFixed(1)} ms`);
  printRow('bwrap true, protection mounts, median', `${median(guarded).toFixed(1)} ms`);
}
rmSync(base, { recursive: true, force: true });
