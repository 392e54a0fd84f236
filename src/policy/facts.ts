import { lstatSync } from 'node:fs';
import { posix } from 'node:path';
import type { CommandGuard, CommandVerdict } from './command/command-types';
import { credentialFile, credentialWord, isCredentialPath } from './credential-files';
import { readsOrScratch } from './reads-or-scratch';
import { gitConfigRuns } from './git-repo-config';
import { judgeExpanded } from './glob-operands';
import { coveredEntries, type NetworkEntry, networkEntries } from './network-hosts';
import { wordOutside } from './reads-outside';
import type { PathFence, PathVerdict } from './guards/path-guard';
import type { SandboxInfo, ToolKind, ToolProfile } from './tool-profile';

/**
 * One path a command writes. `scratch`: the sandbox's private `/tmp` (or `/dev/shm`), gone after the
 * run, so not an outside write. `dynamic`: the path is only known at run time (`> "$OUT"`).
 */
export type WriteFact = {
  target: string;
  verdict: PathVerdict;
  scratch?: true;
  dynamic?: true;
  /** Inside the project: whether the file exists and whether undo can restore it. */
  state?: WriteState;
};

/**
 * What a write lands on: a new file; an existing file the checkpoint holds (undo restores it); or an
 * existing file it does not hold (ignored, too large, binary, a link, no git) — `why` says which.
 */
export type WriteState = { kind: 'new' } | { kind: 'covered' } | { kind: 'uncovered'; why: string };

/** Answers, at judgement time, what a write onto a project path would land on. `byTool`: a file tool writes it. */
export type WriteCoverage = { state(relative: string, byTool: boolean): WriteState };

/**
 * Without a coverage answer (a gate built without one): a new file is new; a command's write onto an
 * existing one may replace what undo cannot restore, as far as warden knows; a file tool's write keeps
 * its pre-image either way.
 */
function existenceOnly(root: string): WriteCoverage {
  return {
    state(relative, byTool) {
      if (byTool) return { kind: 'covered' };
      try {
        lstatSync(posix.join(root, relative));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'new' };
      }
      return { kind: 'uncovered', why: 'warden cannot tell whether the checkpoint holds it' };
    },
  };
}

/** What the guards learned about a call; the policy decides on these facts, never on raw strings. */
export type CallFacts = {
  tool: string;
  kind: ToolKind;
  args: Record<string, unknown>;
  /** Every path argument, checked by the fence (an absent optional path is the project root). */
  paths: { field: string; verdict: PathVerdict }[];
  command?: CommandVerdict;
  /** The command as written, where it runs, and its timeout argument, when the tool declares them. */
  commandText?: string;
  commandCwd?: PathVerdict;
  timeoutMs?: number;
  /** The whole new content of the first path (a write the card shows as a diff). */
  content?: string;
  /** Every path the command writes (its parts' `writes`), checked by the fence from the command's cwd. */
  writes?: WriteFact[];
  /** A file tool's write onto its path: new, restorable by undo, or not. */
  toolWrite?: WriteState;
  /** A credential file the call reads (`.env`, `id_rsa`, `*.pem` …): its content would leave with the reply. */
  secret?: string;
  /** Every credential file a command names, as real paths inside the project: what an approved card unmasks in the sandbox. */
  secretPaths?: string[];
  /** A word of a read-only command that names a path outside the project (`cat /etc/passwd`, `ls ..`). */
  readsOutside?: string;
  url?: string;
  /**
   * The hosts a command asks to reach through warden's proxy (`entries`), and those of them the
   * person's own `sandbox.network` does not list (`unlisted`): only a person's approval grants those.
   */
  network?: { entries: NetworkEntry[]; unlisted: NetworkEntry[] };
  sandboxed: boolean;
  /** Set for `mcp__<server>__<tool>` tools. */
  mcpServer?: string;
  /** Set when a capped argument is too large. */
  oversize?: { field: string; bytes: number; limit: number };
  /** The tool is a conversation with the person (it declares so): always asks, never granted. */
  interactive?: true;
  /** The tool declares its writes ones the auto-edit mode may allow. */
  autoEditable?: true;
};

export type FactDeps = {
  fence: PathFence;
  commands: CommandGuard;
  sandbox: SandboxInfo;
  /** What undo can restore (src/gate/write-coverage.ts); absent, no existing file counts as restorable. */
  coverage?: WriteCoverage;
  /** The hosts the person's own config lets any command reach without a card naming them (`sandbox.network`). */
  network?: readonly NetworkEntry[];
};

/** Runs the guards a tool declares over its (already schema-valid) arguments. Never throws. */
export function gatherFacts(tool: ToolProfile, args: Record<string, unknown>, deps: FactDeps): CallFacts {
  const g = tool.guarded ?? {};
  const paths = (g.paths ?? []).map((field) => {
    const value = args[field];
    return { field, verdict: deps.fence.check(typeof value === 'string' ? value : '.') };
  });
  const facts: CallFacts = {
    tool: tool.name,
    kind: tool.kind,
    args,
    paths,
    sandboxed: deps.sandbox.kind !== 'none',
  };
  if (g.content !== undefined && typeof args[g.content] === 'string')
    facts.content = args[g.content] as string;
  if (g.command && typeof args[g.command] === 'string') {
    facts.commandText = args[g.command] as string;
    const cwd = paths.find((p) => p.field === g.cwd)?.verdict;
    const judged = deps.commands.judge(facts.commandText);
    facts.command = cwd?.ok
      ? repoChecked(judgeExpanded(judged, cwd.path, deps.commands), cwd.path, deps.fence.root)
      : judged;
    if (cwd) facts.commandCwd = cwd;
    const timeout = g.timeout === undefined ? undefined : args[g.timeout];
    if (typeof timeout === 'number') facts.timeoutMs = timeout;
    const writes = commandWrites(
      facts.command,
      cwd,
      deps.fence,
      facts.sandboxed,
      deps.coverage ?? existenceOnly(deps.fence.root),
    );
    if (writes.length > 0) facts.writes = writes;
    const credentials = credentialWords(facts.command, cwd, deps.fence);
    const named =
      credentialWord(facts.command.parts.flatMap((p) => [...p.argv, ...(p.reads ?? [])])) ??
      credentials[0]?.word;
    if (named) facts.secret = named;
    if (credentials.length > 0) facts.secretPaths = credentials.map((c) => c.path);
    // Only a read-only command can run without a card, so only its words need the fence (it costs syscalls).
    if (
      facts.command.kind === 'ok' &&
      readsOrScratch(facts.command.parts, facts.writes) &&
      facts.sandboxed &&
      !named
    ) {
      const outside = wordOutside(facts.command, cwd, deps.fence);
      if (outside !== undefined) facts.readsOutside = outside;
    }
  } else if (tool.kind === 'write') {
    // Only a tool whose first path is the file it writes (write_file, edit_file), not a folder.
    const target = paths[0]?.field === 'path' ? paths[0].verdict : undefined;
    if (target?.ok && target.relative !== '')
      facts.toolWrite = (deps.coverage ?? existenceOnly(deps.fence.root)).state(target.relative, true);
  } else if (tool.kind === 'read') {
    for (const p of paths) {
      const found = p.verdict.ok ? credentialFile(p.verdict.relative, p.verdict.path) : undefined;
      if (found === undefined) continue;
      facts.secret = found;
      break;
    }
  }
  if (g.url && typeof args[g.url] === 'string') facts.url = args[g.url] as string;
  const hosts = g.network === undefined ? undefined : args[g.network];
  if (Array.isArray(hosts) && hosts.length > 0) {
    const entries = networkEntries(hosts.filter((h): h is string => typeof h === 'string'));
    if (entries.length > 0)
      facts.network = { entries, unlisted: coveredEntries(entries, deps.network ?? []).unlisted };
  }
  if (g.maxBytes) {
    const value = args[g.maxBytes.field];
    const bytes = typeof value === 'string' ? Buffer.byteLength(value) : 0;
    if (bytes > g.maxBytes.bytes)
      facts.oversize = { field: g.maxBytes.field, bytes, limit: g.maxBytes.bytes };
  }
  if (tool.interactive) facts.interactive = true;
  if (tool.autoEditable) facts.autoEditable = true;
  const server = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(tool.name)?.[1];
  if (server) {
    facts.mcpServer = server;
    // An MCP tool that reads files takes paths in its own words: any argument naming a credential file counts.
    const named = argumentCredential(args, deps.fence);
    if (named !== undefined) facts.secret ??= named;
  }
  return facts;
}

/** Words a command's parts carry at most that are checked as files (each costs a realpath and maybe a read). */
const MAX_CHECKED_WORDS = 64;

/**
 * The credential files a command's words name, by name or by content (`cat notes.txt` where the file
 * holds a private key), resolved from the command's cwd through the fence: links and `..` count where
 * they really lead. Only files inside the project: outside it, the sandbox shows nothing anyway.
 */
function credentialWords(
  verdict: CommandVerdict,
  cwd: PathVerdict | undefined,
  fence: PathFence,
): { word: string; path: string }[] {
  const base = cwd?.ok ? cwd.relative : '';
  const out: { word: string; path: string }[] = [];
  let checked = 0;
  for (const part of verdict.parts) {
    for (const raw of [...part.argv.slice(1), ...(part.reads ?? [])]) {
      const word = raw.startsWith('-') ? (raw.includes('=') ? raw.slice(raw.indexOf('=') + 1) : '') : raw;
      if (word === '' || word.includes(MARK) || ++checked > MAX_CHECKED_WORDS) continue;
      const v = fence.check(posix.isAbsolute(word) || base === '' ? word : posix.join(base, word));
      if (!v.ok || v.relative === '' || out.some((o) => o.path === v.path)) continue;
      if (credentialFile(v.relative, v.path) !== undefined) out.push({ word, path: v.path });
    }
  }
  return out;
}

/** Strings of an MCP tool's arguments that are checked (nested values included), at most. */
const MAX_ARGUMENT_STRINGS = 64;

/**
 * The first string among `args` (nested) that names a credential file: by name wherever it points
 * (`/home/u/.ssh/id_rsa`, `file:///p/.env`), by content when it resolves inside the project.
 */
function argumentCredential(args: unknown, fence: PathFence): string | undefined {
  const strings: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (strings.length >= MAX_ARGUMENT_STRINGS || depth > 8) return;
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(args, 0);
  for (const raw of strings) {
    if (raw.length > 4096 || raw.includes('\n')) continue;
    const path = raw.replace(/^file:\/\//, '');
    if (isCredentialPath(path)) return raw;
    const v = fence.check(path);
    if (v.ok && v.relative !== '' && credentialFile(v.relative, v.path) !== undefined) return raw;
  }
  return undefined;
}

/** `git status|diff|log|show` stay read-only only while the repository's config runs nothing for them. */
function repoChecked(verdict: CommandVerdict, cwd: string, root: string): CommandVerdict {
  if (verdict.kind !== 'ok' || !verdict.parts.some((p) => p.repoConfig && p.readOnly)) return verdict;
  const runs = gitConfigRuns(cwd, root);
  if (runs === undefined) return verdict;
  const parts = verdict.parts.map((p) => (p.repoConfig ? { ...p, readOnly: false } : p));
  return { ...verdict, parts, readOnly: false, notes: [...verdict.notes, `git: ${runs}`] };
}

/** Streams, not files: writing them changes nothing. `/dev/tty` is not one: it reaches the person's terminal. */
export const HARMLESS_WRITE = /^\/dev\/(null|stdout|stderr|fd\/[12])$/;
/**
 * Private to each sandboxed run: bubblewrap mounts a fresh tmpfs on /tmp and a minimal /dev (no disks),
 * so a write there is not a write outside the project. Without a sandbox they are the real ones.
 */
const SANDBOX_SCRATCH = /^\/(tmp|dev)(\/|$)/;
const MARK = '\u0000';

/** The command's write targets through the fence; relative ones from the command's cwd inside the project. */
function commandWrites(
  verdict: CommandVerdict,
  cwd: PathVerdict | undefined,
  fence: PathFence,
  sandboxed: boolean,
  coverage: WriteCoverage,
): WriteFact[] {
  const base = cwd?.ok ? cwd.relative : '';
  const seen = new Set<string>();
  const out: WriteFact[] = [];
  for (const part of verdict.parts) {
    for (const target of part.writes ?? []) {
      if (seen.has(target) || HARMLESS_WRITE.test(target)) continue;
      seen.add(target);
      if (target.includes(MARK)) {
        const shown = target.replaceAll(MARK, '');
        out.push({
          target,
          dynamic: true,
          verdict: { ok: false, ruleId: 'path-invalid', reason: `${shown} is only known at run time.` },
        });
        continue;
      }
      const path = posix.isAbsolute(target) || base === '' ? target : posix.join(base, target);
      const checked = fence.check(path);
      // Normalised first: `/tmp/../home/x` is not scratch. Inside the project, the fence's answer stands.
      const scratch =
        sandboxed && !checked.ok && posix.isAbsolute(target) && SANDBOX_SCRATCH.test(posix.normalize(target));
      if (scratch) out.push({ target, verdict: checked, scratch: true });
      else if (checked.ok)
        out.push({ target, verdict: checked, state: coverage.state(checked.relative, false) });
      else out.push({ target, verdict: checked });
    }
  }
  return out;
}

/** The first protected path a call touches (a path argument or a command's write target), if any. */
export function protectedPath(facts: CallFacts): string | undefined {
  for (const p of facts.paths) if (p.verdict.ok && p.verdict.protectedBy) return p.verdict.relative;
  for (const w of facts.writes ?? []) if (w.verdict.ok && w.verdict.protectedBy) return w.verdict.relative;
  return undefined;
}

/** The write targets a call's command may not have: outside the project and not the sandbox's scratch. */
export function outsideWrite(facts: CallFacts): WriteFact | undefined {
  return facts.writes?.find((w) => !w.verdict.ok && !w.scratch && !w.dynamic);
}
