// Bash is the reference: every corpus case with a `proof` runs in real bash, inside bubblewrap
// (root read-only, network off, only a throwaway directory writable), and must do what the
// corpus says it does — hidden code really runs, destructive commands really lose data, reads
// really change nothing, and the listed write paths are really written.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapBaseArgs } from '../../../src/tools/exec/sandbox';
import { ALL_CASES } from './command-corpus/index';
import type { Case } from './command-corpus/types';

// Set in beforeAll, so that merely collecting this file leaves nothing behind.
let base = '';
let work = '';
let template = '';
let MARK = '';
/** Runs code when bash evaluates it as arithmetic, or expands it as a prompt. */
const ENV = { X: 'a[$(touch MARK)]', P: '$(touch MARK)' };

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true']).status === 0;

function sh(cwd: string, script: string): void {
  const r = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fixture failed: ${script}\n${r.stderr}`);
}

/** The directory every proof starts from: plain files and a git repository with a hostile config. */
function buildTemplate(): void {
  base = mkdtempSync(join(tmpdir(), 'warden-corpus-'));
  work = join(base, 'w');
  template = join(base, 'template');
  MARK = join(work, 'MARK');
  mkdirSync(work, { recursive: true });
  const hook = join(base, 'hook.sh');
  writeFileSync(hook, `#!/bin/sh\ntouch ${MARK}\ncat\n`, { mode: 0o755 });
  mkdirSync(join(base, 'hooks'));
  for (const h of ['post-index-change', 'reference-transaction', 'post-checkout'])
    writeFileSync(join(base, 'hooks', h), `#!/bin/sh\ntouch ${MARK}\n`, { mode: 0o755 });
  writeFileSync(join(work, 'f'), 'data\n');
  writeFileSync(join(work, 'g'), 'more data\n');
  writeFileSync(join(work, 'a.txt'), 'a\nx\n');
  writeFileSync(join(work, 'b.txt'), 'b\n');
  writeFileSync(join(work, 'in.txt'), `${ENV.X}\n`);
  writeFileSync(join(work, 'script.sh'), 'touch MARK\n');
  mkdirSync(join(work, 'dir'));
  writeFileSync(join(work, 'dir', 'x'), 'x\n');
  sh(
    work,
    [
      'git init -q -b master . && git config user.email t@t && git config user.name t',
      "echo '*.txt diff=tc filter=fl' > .gitattributes",
      'git add a.txt b.txt dir .gitattributes script.sh && git commit -qm init',
      // a commit with a signature header, so that log.showSignature calls gpg.program
      'c=$(printf "tree %s\\nparent %s\\nauthor t <t@t> 1700000000 +0000\\ncommitter t <t@t> 1700000000 +0000\\ngpgsig -----BEGIN PGP SIGNATURE-----\\n \\n abc\\n -----END PGP SIGNATURE-----\\n\\nsigned\\n" $(git rev-parse HEAD^{tree}) $(git rev-parse HEAD) | git hash-object -t commit -w --stdin) && git update-ref refs/heads/master $c',
      `git config core.fsmonitor ${hook} && git config diff.tc.textconv ${hook} && git config diff.external ${hook}`,
      `git config filter.fl.clean ${hook} && git config log.showSignature true && git config gpg.program ${hook}`,
      `git config core.pager ${hook} && git config core.hooksPath ${join(base, 'hooks')}`,
      // an uncommitted change for the data-loss forms to lose; old timestamps so git re-reads files
      "printf 'a\\nx\\nlocal edit\\n' > a.txt && touch -d 2000-01-01 a.txt b.txt",
      // fewer files to copy for every case
      'rm -f .git/hooks/*.sample .git/description .git/info/exclude',
    ].join(' && '),
  );
  cpSync(work, template, { recursive: true, verbatimSymlinks: true });
}

type Snapshot = Map<string, string>;

/** Every file under the work directory with its content (links as `-> target`), but the index. */
function snapshot(): Snapshot {
  const out: Snapshot = new Map();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(work, path);
      if (rel === '.git/index' || rel === '.git/index.lock') continue;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        out.set(`${rel}/`, 'dir');
        walk(path);
      } else out.set(rel, st.isSymbolicLink() ? `-> ${safeRead(path)}` : readFileSync(path, 'latin1'));
    }
  };
  walk(work);
  return out;
}

const safeRead = (path: string): string => (existsSync(path) ? readFileSync(path, 'latin1') : '(dangling)');

function runInSandbox(cmd: string): string {
  const r = spawnSync(
    'bwrap',
    [
      // The sandbox's own layout, without its protections: the proofs see every write.
      ...bwrapBaseArgs(base),
      '--unshare-net',
      '--die-with-parent',
      '--chdir',
      work,
      'bash',
      '-c',
      cmd,
    ],
    {
      env: { ...process.env, ...ENV, GIT_PAGER: '', PAGER: 'cat' },
      encoding: 'utf8',
      timeout: 15_000,
      // stdin from /dev/null, as warden runs commands (process-group.ts). A pipe is a socket pair in
      // Node, and bash with a socket on stdin (and SHLVL under 2) takes itself for a remote shell: it
      // reads ~/.bashrc instead of BASH_ENV, and the proofs that rest on BASH_ENV failed in some shells.
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.slice(0, 400);
}

function changedUnder(before: Snapshot, after: Snapshot, prefix: string): boolean {
  for (const [k, v] of after) if (k.startsWith(prefix) && before.get(k) !== v) return true;
  return false;
}

function check(c: Case): void {
  rmSync(work, { recursive: true, force: true });
  cpSync(template, work, { recursive: true, verbatimSymlinks: true });
  const before = snapshot();
  const output = runInSandbox(c.cmd);
  const after = snapshot();
  const why = `${c.cmd}\n${output}`;
  switch (c.proof) {
    case 'runs':
      expect(existsSync(MARK), `bash did not run the hidden code: ${why}`).toBe(true);
      break;
    case 'reads':
      expect(
        [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k),
        why,
      ).toEqual([]);
      expect(
        [...before.keys()].filter((k) => !after.has(k)),
        why,
      ).toEqual([]);
      break;
    case 'loses': {
      const lost = [...before].filter(([k, v]) => !k.startsWith('.git/') && after.get(k) !== v);
      expect(lost.length, `nothing that existed lost its content: ${why}`).toBeGreaterThan(0);
      break;
    }
    case 'writes':
      for (const path of c.writes ?? []) {
        const written =
          path === '.git' ? changedUnder(before, after, '.git/') : changedUnder(before, after, path);
        expect(written, `${path} was not written: ${why}`).toBe(true);
      }
      break;
    default:
      throw new Error(`case without proof: ${c.cmd}`);
  }
}

const PROVED = ALL_CASES.filter((c) => c.proof !== undefined);

describe.skipIf(!bwrapWorks)('command corpus, proved in bash', () => {
  beforeAll(buildTemplate);
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('proves most of the corpus', () => {
    expect(PROVED.length).toBeGreaterThanOrEqual(200);
  });

  it.each(PROVED.map((c) => [c.proof, c.cmd, c] as const))('%s: %j', (_proof, _cmd, c) => check(c));
});
