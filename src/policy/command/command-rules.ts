import { isCriticalPath, isDevicePath, resolveAgainst } from './command-paths';
import { programName } from './command-programs';
import { isReadOnly } from './command-readonly';
import { EXPANSION_MARK } from './command-words';

/** A hard rule that matched: a stable id for audit and tests, and one sentence for a person. */
export type Deny = { ruleId: string; reason: string };

type Rule = (argv: readonly string[], name: string, cwd: string | undefined) => Deny | undefined;

// runuser and sg run a command as another user or group, like su (red team: they were judged as plain programs).
const ESCALATORS = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'sudoedit', 'sudo-rs', 'runuser', 'sg']);
const PARTITIONERS = new Set(['fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'cgdisk', 'parted', 'wipefs']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const POWER_VERBS = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'soft-reboot']);
const FIND_ACTIONS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);

const deny = (ruleId: string, reason: string): Deny => ({ ruleId, reason });

/** Options and operands (resolved against a known `cd`) of a GNU-style command. */
function readOptions(
  argv: readonly string[],
  cwd: string | undefined,
): { letters: Set<string>; longs: string[]; operands: string[] } {
  const letters = new Set<string>();
  const longs: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const a of argv.slice(1)) {
    if (!ended && a === '--') ended = true;
    else if (!ended && a.startsWith('--')) longs.push(a.slice(2).split('=')[0] as string);
    else if (!ended && a.startsWith('-') && a.length > 1) for (const l of a.slice(1)) letters.add(l);
    else operands.push(resolveAgainst(cwd, a));
  }
  return { letters, longs, operands };
}

/** GNU getopt accepts any unambiguous prefix of a long option: `--recur`, `--no-preserve`. */
const longMatches = (longs: readonly string[], full: string, minLength = 2): boolean =>
  longs.some((l) => l.length >= minLength && full.startsWith(l));

const rm: Rule = (argv, _name, cwd) => {
  const { letters, longs, operands } = readOptions(argv, cwd);
  if (longMatches(longs, 'no-preserve-root', 3)) {
    return deny(
      'cmd-rm-no-preserve-root',
      'rm --no-preserve-root switches off the protection against deleting /.',
    );
  }
  const recursive = letters.has('r') || letters.has('R') || longMatches(longs, 'recursive', 1);
  const target = operands.find(isCriticalPath);
  if (recursive && target !== undefined) {
    return deny(
      'cmd-rm-root',
      `Recursively deleting ${display(target)} would destroy the system or a home directory.`,
    );
  }
  return undefined;
};

const recursiveOwnership =
  (ruleId: string): Rule =>
  (argv, name, cwd) => {
    const { letters, longs, operands } = readOptions(argv, cwd);
    // The first operand is the mode or owner, unless it came as `--reference=` or a `-w`-style mode.
    const modeAsOption = name === 'chmod' && [...letters].some((l) => 'rwxXst'.includes(l));
    const targets = modeAsOption || longMatches(longs, 'reference', 3) ? operands : operands.slice(1);
    const target = targets.find(isCriticalPath);
    if ((letters.has('R') || longMatches(longs, 'recursive', 3)) && target !== undefined) {
      return deny(
        ruleId,
        `${name} -R on ${display(target)} would change every file of the system or a home directory.`,
      );
    }
    return undefined;
  };

/** Copying or teeing onto a disk device is as destructive as `dd of=/dev/sda`. */
const deviceWriter: Rule = (argv, name, cwd) => {
  const { operands } = readOptions(argv, cwd);
  const targets = ['tee', 'shred', 'blkdiscard'].includes(name) ? operands : operands.slice(-1);
  const device = targets.find(isDevicePath);
  return device
    ? deny('cmd-write-device', `${name} would write onto the device ${device}, destroying what is on it.`)
    : undefined;
};

/** Moving `/`, a system directory or a home away is deleting it from where it belongs. */
const mv: Rule = (argv, name, cwd) => {
  const onDevice = deviceWriter(argv, name, cwd);
  if (onDevice) return onDevice;
  const source = readOptions(argv, cwd).operands.slice(0, -1).find(isCriticalPath);
  return source === undefined
    ? undefined
    : deny('cmd-mv-root', `Moving ${display(source)} away would break the system or empty a home directory.`);
};

const dd: Rule = (argv) => {
  const out = argv.find((a) => a.startsWith('of='));
  if (out && isDevicePath(out.slice(3))) {
    return deny(
      'cmd-dd-device',
      `dd would write raw data onto the device ${out.slice(3)}, destroying what is on it.`,
    );
  }
  return undefined;
};

const find: Rule = (argv, _name, cwd) => {
  let i = 1;
  while (i < argv.length && /^-[HLP]$|^-O\d?$|^-D$/.test(argv[i] as string)) i += argv[i] === '-D' ? 2 : 1;
  const starts: string[] = [];
  for (; i < argv.length && !/^[-(!]/.test(argv[i] as string); i++)
    starts.push(resolveAgainst(cwd, argv[i] as string));
  // With no starting point find searches the working directory.
  if (starts.length === 0) starts.push(resolveAgainst(cwd, '.'));
  const rest = argv.slice(i);
  // `find / -name x -exec ls {} +` only reads; `-delete` or `-exec rm` over everything does not.
  const action = rest.find(
    (a, k) => FIND_ACTIONS.has(a) && (a === '-delete' || !isReadOnly(execArgs(rest, k))),
  );
  const root = starts.find(isCriticalPath);
  if (action && root !== undefined) {
    return deny(
      'cmd-find-root-delete',
      `find ${display(root)} ${action} would act on every file of the system or a home directory.`,
    );
  }
  return undefined;
};

/** The command of `-exec cmd args… ;` (or `+`) starting at `rest[at]`. */
function execArgs(rest: readonly string[], at: number): string[] {
  const end = rest.findIndex((a, j) => j > at && (a === ';' || a === '+'));
  return rest.slice(at + 1, end < 0 ? rest.length : end);
}

const systemctl: Rule = (argv, name) => {
  const verb = argv.slice(1).find((a) => !a.startsWith('-'));
  return verb && POWER_VERBS.has(verb) ? powerDeny(`${name} ${verb}`) : undefined;
};

const init: Rule = (argv, name) => {
  const level = argv[1];
  return level === '0' || level === '6' ? powerDeny(`${name} ${level}`) : undefined;
};

const kill: Rule = (argv) => {
  // `kill -9 -1` / `kill -- -1` signal every process the user owns.
  const rest = argv.slice(1);
  // The first dash word is the signal (`-1` there is SIGHUP); only a later `-1` is "every process".
  if (rest[0] === '-s' || rest[0] === '-n') rest.splice(0, 2);
  else if (rest[0]?.startsWith('-')) rest.splice(0, 1);
  return rest.includes('-1')
    ? deny('cmd-kill-all', 'kill -1 signals every process you own, including this session.')
    : undefined;
};

const powerDeny = (what: string): Deny =>
  deny('cmd-shutdown', `${what} would shut down or restart the machine.`);

const RULES: Record<string, Rule> = {
  rm,
  // rimraf (npx rimraf /) is rm -r under another name.
  rimraf: (argv, name, cwd) => rm([name, '-r', ...argv.slice(1)], name, cwd),
  mv,
  cp: deviceWriter,
  install: deviceWriter,
  rsync: deviceWriter,
  tee: deviceWriter,
  shred: deviceWriter,
  blkdiscard: deviceWriter,
  chmod: recursiveOwnership('cmd-chmod-root'),
  chown: recursiveOwnership('cmd-chown-root'),
  chgrp: recursiveOwnership('cmd-chown-root'),
  dd,
  find,
  systemctl,
  loginctl: systemctl,
  init,
  telinit: init,
  kill,
};

/**
 * The hard deny rules for one simple command (already unwrapped, words after quote removal);
 * `cwd` is the directory an earlier `cd` in the same line moved to, when known.
 * Contract: pure; never throws; undefined when no rule matches.
 */
export function denyFor(argv: readonly string[], cwd?: string): Deny | undefined {
  const name = programName(argv[0]);
  if (ESCALATORS.has(name)) {
    return deny(
      'cmd-sudo',
      `${name} runs a command with another user's rights; warden never escalates privileges.`,
    );
  }
  if (/^(mkfs|mke2fs|mkswap|mkdosfs|mkntfs|newfs)/.test(name)) {
    return deny('cmd-mkfs', `${name} formats a disk or partition, erasing everything on it.`);
  }
  if (PARTITIONERS.has(name)) {
    return deny('cmd-partition', `${name} edits disk partition tables, which can make a disk unreadable.`);
  }
  if (POWER.has(name)) return powerDeny(name);
  return RULES[name]?.(argv, name, cwd);
}

/** Shows a word in a reason; unresolved expansions appear as their source text. */
const display = (value: string): string => value.replaceAll(EXPANSION_MARK, '');
