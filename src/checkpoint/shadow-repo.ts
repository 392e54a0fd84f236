/**
 * A shadow git repository of one project: its GIT_DIR under `$WARDEN_HOME/checkpoints/<project-id>/git`,
 * its work tree the project. Never touches the project's own `.git`. A checkpoint stages what
 * `ls-files` names as changed (the index kept between calls, so the next one only looks at what
 * changed), then write-tree and commit-tree — plumbing, which runs no hook. Nothing the project says
 * can hide a file from it: its .gitignore files are not read, only warden's own excludes
 * (node_modules/, warden's temp files) and the size cap.
 * (Just over 400 lines: the repository's life — open, follow a neighbour, stage, commit, read back —
 * is one unit; its clean-up after failures lives in repo-cleanup.ts.)
 * Files over the size cap are listed in the checkpoint, not copied (they stay out of the index).
 * All git runs with the environment of git-env.ts: through simple-git, and the change listing directly.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { GIT_ENV_KEYS, gitEnv, writeRepoSettings } from './git-env';
import { STALE_LOCK_MS, removeLocks, removeStaleLocks, removeTempObjects } from './repo-cleanup';
import type { Checkpoint, LargeFile } from './types';

export type ShadowRepoOptions = {
  /** `$WARDEN_HOME/checkpoints/<project-id>` */
  dir: string;
  /** The project root (real path). */
  root: string;
  git: string;
  /** Files larger than this are listed, not copied. */
  maxFileBytes: number;
  /** Root-relative paths never checkpointed (WARDEN_HOME inside the project). */
  exclude?: readonly string[];
};

/** A tree entry of a checkpoint: a file (mode 0o644/0o755), a symbolic link, or something git keeps but warden cannot restore. */
export type TreeEntry =
  | { kind: 'file'; sha: string; mode: number }
  | { kind: 'link'; sha: string }
  | { kind: 'other'; sha: string };

/** One line of `git diff-tree --raw`. */
export type RawChange = { path: string; status: 'A' | 'D' | 'M'; before?: TreeEntry; after?: TreeEntry };

const EMPTY_TREE = '4b825dc642cb6eb5a060e54bf8d69288fbee4904';
const HEAD_REF = 'ref: refs/heads/checkpoints\n';

export class ShadowRepo {
  /** simple-git (and its `debug` dependency) loads with the first git run, not at start-up. */
  private client: Promise<SimpleGit> | undefined;
  private readonly gitDir: string;
  /** Opening the repository (created on first use), started by `prepare` or the first snapshot. */
  private opening: Promise<void> | undefined;
  private head: { commit: string; tree: string; large: LargeFile[] } | undefined;
  /** Set while the index may hold what no checkpoint commit has yet (a checkpoint failed after staging). */
  private unwritten = false;
  /** Checkpoints run one at a time (parallel sub-agents share the index). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: ShadowRepoOptions) {
    this.gitDir = join(o.dir, 'git');
    try {
      mkdirSync(this.emptyHome, { recursive: true, mode: 0o700 });
    } catch {
      // An unwritable WARDEN_HOME must not stop the session from starting: the repository cannot be
      // created either, so every checkpoint fails and file-changing calls are refused (checkpoint_failed).
      // A HOME that does not exist gives git no configuration, like an empty one.
    }
  }

  /** warden's own excludes (git-env.ts): the only ignore rules the shadow repository takes. */
  private get excludesFile(): string {
    return join(this.gitDir, 'info', 'exclude');
  }

  private get emptyHome(): string {
    return join(this.o.dir, 'empty-home');
  }

  private git(): Promise<SimpleGit> {
    this.client ??= import('simple-git').then(({ simpleGit }) =>
      simpleGit({
        baseDir: this.o.root,
        binary: this.o.git,
        maxConcurrentProcesses: 4,
        trimmed: false,
        // GIT_CONFIG_GLOBAL=/dev/null is how the person's own config is kept out.
        unsafe: { allowUnsafeConfigPaths: true },
        allowEnvironment: [...GIT_ENV_KEYS],
      }).env(gitEnv(this.gitDir, this.o.root, this.emptyHome)),
    );
    return this.client;
  }

  /** Takes a checkpoint of the whole work tree. Contract: rejects when git fails; the caller fails closed. */
  snapshot(label: string): Promise<Checkpoint> {
    const next = this.queue.then(() => {
      const started = Date.now();
      const lockedBefore = existsSync(join(this.gitDir, 'index.lock'));
      return this.take(label).catch((err: unknown) => {
        // A disk that filled during `git add` left a half-written object (924 KB in the fault run),
        // and the disk stayed full for every later checkpoint, even once the big file was gone; a
        // git killed there (a file-size limit) left its index lock too. What appeared since this
        // checkpoint began is its own — unless a lock was already there (another warden's).
        const ours = (mtimeMs: number) => mtimeMs >= started - 1000;
        removeTempObjects(this.gitDir, ours);
        if (!lockedBefore) removeLocks(this.gitDir, ours);
        throw err;
      });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Opens the repository (creating it on first use) ahead of the first snapshot, so a first card's
   * checkpoint runs only status, staging, write-tree and commit-tree. Takes no snapshot: nothing of
   * the project is recorded early. Contract: never throws; a failure is met again, and reported, by
   * the first snapshot (which fails closed).
   */
  prepare(): void {
    this.queue = this.queue.then(() => this.open()).catch(() => undefined);
  }

  /** Resolves once every snapshot asked for so far has ended (taken or failed). */
  async settled(): Promise<void> {
    await this.queue;
  }

  private async take(label: string): Promise<Checkpoint> {
    await this.open();
    await this.followBranch();
    // Not `git status`: it reads the project's .gitignore files, and a clone's `*` there made every
    // file ignored — no review card, nothing to undo. ls-files without
    // --exclude-standard takes only warden's own excludes (--exclude-from), and still does not descend
    // into an excluded folder such as node_modules/. It names modified, deleted and new paths at once.
    // Spawned directly: when nothing changed it prints nothing, and simple-git then waits 50 ms more.
    const status = await this.listChanged();
    const head = this.head;
    if (head && status === '' && !this.unwritten && (await this.sameLarge(head.large)))
      return { commit: head.commit, large: head.large };
    const changed = changedPaths(status);
    const large = await this.largeFiles(changed, head?.large ?? []);
    await this.stage(changed, large);
    // A tracked file that grew past the cap leaves the index: the checkpoint lists it instead.
    const tracked = large.map((f) => f.path);
    if (tracked.length > 0)
      await (await this.git()).raw(['rm', '--cached', '-q', '--ignore-unmatch', '--', ...tracked]);
    // A checkpoint that fails after staging leaves the index ahead of the branch: the next one writes it.
    this.unwritten = true;
    const tree = (await (await this.git()).raw(['write-tree'])).trim();
    if (head && tree === head.tree && sameList(large, head.large)) {
      this.unwritten = false;
      return { commit: head.commit, large: head.large };
    }
    const message = JSON.stringify({ warden: 1, label, large });
    const args = ['commit-tree', tree, '-m', message, ...(head ? ['-p', head.commit] : [])];
    const commit = (await (await this.git()).raw(args)).trim();
    this.setBranch(commit);
    this.head = { commit, tree, large };
    this.unwritten = false;
    return { commit, large };
  }

  /**
   * Brings the index to the work tree: the changed paths ls-files just named, by name and in chunks,
   * so git does not scan the whole tree a second time — most of an incremental checkpoint's time on a
   * large project; a chunk git cannot stage by name (a nested repository, an unreadable file) goes
   * through `add`, which skips what it cannot read.
   */
  private async stage(changed: readonly string[], large: readonly LargeFile[]): Promise<void> {
    const skip = new Set(large.map((f) => f.path));
    const paths = [...new Set(changed)].filter((p) => !skip.has(p));
    for (let i = 0; i < paths.length; i += STAGE_BY_NAME) {
      const chunk = paths.slice(i, i + STAGE_BY_NAME);
      // By name: update-index takes no ignore rule (a project's .gitignore must not hide a file from
      // undo). --verbose: simple-git waits 50 ms more for a command that prints nothing.
      const staged = await (await this.git())
        .raw(['update-index', '--verbose', '--add', '--remove', '--', ...chunk])
        .then(
          () => true,
          () => false,
        );
      if (!staged) await this.stageOneByOne(chunk);
    }
  }

  /**
   * A chunk git could not stage by name at once (a nested repository, an unreadable file, a path
   * beyond a link): each path alone, a nested repository through `add` (-f: the project's ignore
   * rules do not count here either). A path git refuses (beyond a link) is left as the last checkpoint
   * had it; one it fails to write (a full disk) fails the checkpoint, closed.
   */
  private async stageOneByOne(paths: readonly string[]): Promise<void> {
    const git = await this.git();
    for (const p of paths) {
      const ok = await git.raw(['update-index', '--verbose', '--add', '--remove', '--', p]).then(
        () => true,
        () => false,
      );
      if (ok) continue;
      const literal = `:(literal,top)${p.replace(/\/$/, '')}`;
      await git.raw(['add', '-A', '-f', '--ignore-errors', '--', literal]).catch((err: Error) => {
        // A path through a link the project swapped in, one gone since ls-files named it, or one
        // inside a nested repository, or one being rewritten as git read it, is not kept now: skipped, as `add -A
        // --ignore-errors` over the whole tree skipped it.
        if (
          !/beyond a symbolic link|did not match any files|is in submodule|short read while indexing/.test(
            err.message,
          )
        )
          throw err;
      });
    }
  }

  /**
   * Points the checkpoints' branch at `commit`: the loose ref file git itself would write, replaced
   * whole. Not `git update-ref`: simple-git waits 50 ms after any command that prints nothing, a third
   * of an incremental checkpoint. The repository is warden's own; nothing else writes this ref.
   */
  private setBranch(commit: string): void {
    const ref = join(this.gitDir, 'refs', 'heads', 'checkpoints');
    mkdirSync(dirname(ref), { recursive: true });
    this.replaceFile(ref, `${commit}\n`);
  }

  /** Replaces a file of the repository whole (temp file, then rename), as git replaces a ref. */
  private replaceFile(path: string, text: string): void {
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, path);
  }

  /** Creates the repository on first use and writes its settings; finds the latest checkpoint. Once. */
  private open(): Promise<void> {
    this.opening ??= this.openRepository().catch((err: unknown) => {
      this.opening = undefined;
      throw err;
    });
    return this.opening;
  }

  /**
   * Every git command here prints something: simple-git waits 50 ms more after one that prints
   * nothing (`init -q`, `symbolic-ref`, `rev-parse -q` of a missing ref), three of them on a new
   * project's first checkpoint.
   */
  private async openRepository(): Promise<void> {
    const git = await this.git();
    const headFile = join(this.gitDir, 'HEAD');
    const created = !existsSync(headFile);
    if (created) {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
      await git.raw(['init']);
    }
    // HEAD names the checkpoints' branch, so `status` compares the work tree with the latest
    // checkpoint: the symbolic ref git itself would write (as setBranch writes the branch), put
    // back if an earlier run stopped between `init` and here.
    if (readFileSync(headFile, 'utf8') !== HEAD_REF) this.replaceFile(headFile, HEAD_REF);
    removeStaleLocks(this.gitDir);
    removeTempObjects(this.gitDir, (mtimeMs) => Date.now() - mtimeMs > STALE_LOCK_MS);
    // Written on every open: our settings win over anything left in the folder.
    writeRepoSettings(this.gitDir, this.o.exclude ?? []);
    if (created) return; // a new repository has no checkpoint yet
    // Without -q a missing branch is said on stderr (and rejects): no silent wait.
    const commit = (
      await git.raw(['rev-parse', '--verify', 'refs/heads/checkpoints^{commit}']).catch(() => '')
    ).trim();
    if (commit) {
      const { tree, large } = await this.commitInfo(commit);
      this.head = { commit, tree, large };
    }
  }

  /** The changed paths ls-files names, as one NUL-separated string. Contract: rejects when git fails. */
  private listChanged(): Promise<string> {
    const args = [
      'ls-files',
      '-z',
      '--modified',
      '--deleted',
      '--others',
      `--exclude-from=${this.excludesFile}`,
    ];
    return new Promise((resolve, reject) => {
      execFile(
        this.o.git,
        args,
        { cwd: this.o.root, env: gitEnv(this.gitDir, this.o.root, this.emptyHome), maxBuffer: 256 * 2 ** 20 },
        (err, stdout, stderr) =>
          err ? reject(new Error(String(stderr).trim() || err.message)) : resolve(stdout),
      );
    });
  }

  /**
   * Another warden on the same project shares this repository (and its index): when its checkpoint
   * moved the branch since ours, the latest checkpoint is its one — else a clean status would hand
   * back our older commit, which lacks what the neighbour staged, and its files would later show up
   * as this turn's own. One small file read per checkpoint.
   */
  private async followBranch(): Promise<void> {
    let onDisk = '';
    try {
      onDisk = readFileSync(join(this.gitDir, 'refs', 'heads', 'checkpoints'), 'utf8').trim();
    } catch {
      return; // no checkpoint yet (or a packed ref, which only git itself writes: not here)
    }
    if (!/^[0-9a-f]{40,64}$/.test(onDisk) || onDisk === this.head?.commit) return;
    const { tree, large } = await this.commitInfo(onDisk);
    this.head = { commit: onDisk, tree, large };
  }

  /** A checkpoint commit's tree and the files it listed instead of copying (one `cat-file`). */
  private async commitInfo(commit: string): Promise<{ tree: string; large: LargeFile[] }> {
    const body = await (await this.git()).raw(['cat-file', 'commit', commit]);
    const tree = /^tree ([0-9a-f]+)$/m.exec(body)?.[1];
    if (!tree) throw new Error(`checkpoint ${commit} has no tree`);
    return { tree, large: largeOfBody(body) };
  }

  /** The files a checkpoint listed instead of copying (from its commit message). */
  async largeOf(commit: string): Promise<LargeFile[]> {
    return largeOfBody(await (await this.git()).raw(['cat-file', 'commit', commit]));
  }

  /** What changed between two checkpoints, file by file (no rename detection: a move is a delete and a create). */
  async diff(from: string | undefined, to: string): Promise<RawChange[]> {
    await this.open();
    const out = await (await this.git()).raw([
      'diff-tree',
      '-r',
      '-z',
      '--raw',
      '--no-renames',
      from ?? EMPTY_TREE,
      to,
    ]);
    const parts = out.split('\0');
    const changes: RawChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i]?.replace(/^:/, '').split(' ') ?? [];
      const path = parts[i + 1] ?? '';
      const [oldMode, newMode, oldSha, newSha, code] = meta;
      const status = code?.[0] === 'A' ? 'A' : code?.[0] === 'D' ? 'D' : 'M';
      changes.push({
        path,
        status,
        ...(status !== 'A' ? { before: entry(oldMode ?? '', oldSha ?? '') } : {}),
        ...(status !== 'D' ? { after: entry(newMode ?? '', newSha ?? '') } : {}),
      });
    }
    return changes;
  }

  /** The entries of `paths` in a checkpoint (absent paths are left out). */
  async entries(commit: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
    await this.open();
    const found = new Map<string, TreeEntry>();
    if (paths.length === 0) return found;
    const out = await (await this.git()).raw([
      '--literal-pathspecs',
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      commit,
      '--',
      ...paths,
    ]);
    for (const line of out.split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode, , sha] = line.slice(0, tab).split(' ');
      found.set(line.slice(tab + 1), entry(mode ?? '', sha ?? ''));
    }
    return found;
  }

  /** A blob's bytes (a file's content, or a link's target). */
  async blob(sha: string): Promise<Buffer> {
    return (await this.git()).binaryCatFile(['blob', sha]);
  }

  /** Current large files: the ones listed before that are still large, plus changed files over the cap. */
  private async largeFiles(changed: string[], before: readonly LargeFile[]): Promise<LargeFile[]> {
    const out = new Map<string, LargeFile>();
    for (const path of new Set([...before.map((f) => f.path), ...changed])) {
      const info = await lstat(join(this.o.root, path)).catch(() => undefined);
      if (info?.isFile() && info.size > this.o.maxFileBytes)
        out.set(path, { path, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
    }
    return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** True when the listed large files are all still there, unchanged (size and time). */
  private async sameLarge(large: readonly LargeFile[]): Promise<boolean> {
    const now = await this.largeFiles([], large);
    return sameList(now, large);
  }
}

/** The files a checkpoint commit listed instead of copying (its message is JSON; anything else lists none). */
function largeOfBody(body: string): LargeFile[] {
  const message = body.slice(body.indexOf('\n\n') + 2);
  try {
    const parsed = JSON.parse(message) as { large?: LargeFile[] };
    return Array.isArray(parsed.large) ? parsed.large : [];
  } catch {
    return [];
  }
}

/** Changed paths staged per update-index run (an argument list well under the system's limit). */
const STAGE_BY_NAME = 500;

/** Paths `git ls-files -z` names (a path both modified and deleted comes twice: once here). */
function changedPaths(listed: string): string[] {
  return [...new Set(listed.split('\0').filter((r) => r.length > 0))];
}

function sameList(a: readonly LargeFile[], b: readonly LargeFile[]): boolean {
  return (
    a.length === b.length &&
    a.every((f, i) => f.path === b[i]?.path && f.size === b[i]?.size && f.mtimeMs === b[i]?.mtimeMs)
  );
}

function entry(mode: string, sha: string): TreeEntry {
  if (mode === '120000') return { kind: 'link', sha };
  if (mode === '100755') return { kind: 'file', sha, mode: 0o755 };
  if (mode === '100644') return { kind: 'file', sha, mode: 0o644 };
  return { kind: 'other', sha };
}
