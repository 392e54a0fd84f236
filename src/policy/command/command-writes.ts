import { posix } from 'node:path';
import { joinDir } from './command-cwd';
import { isLong, longValue, operands, shortValue } from './command-gnu-options';
import { isSystemProgram, programName } from './command-programs';
import { implicitWrites } from './command-writes-implicit';
import { isDynamic } from './command-words';

/** What a part writes, read from its words: paths as given (before joining onto the cwd). */
export type WriteTargets = { paths: string[]; truncated: string[] };

/** Operands a program writes, by how it reads its words. */
type Reader = (argv: readonly string[]) => string[];

/** `cp a b`, `cp a b dir/`, `cp -t dir a b`: where the copies land. */
function destination(short: string, long: readonly string[], alsoSources = false): Reader {
  return (argv) => {
    const ops = operands(argv, short, long);
    const target = shortValue(argv, 't', short) ?? longValue(argv, 'target-directory');
    const sources = target === undefined ? ops.slice(0, -1) : ops;
    const dest = target ?? ops[ops.length - 1];
    if (dest === undefined) return [];
    const intoDir =
      target !== undefined || sources.length > 1 || dest.endsWith('/') || dest === '.' || dest === '..';
    const written = intoDir ? sources.map((s) => posix.join(dest, posix.basename(s))) : [dest];
    return alsoSources ? [...sources, ...written] : written;
  };
}

const all =
  (short = '', long: readonly string[] = []): Reader =>
  (argv) =>
    operands(argv, short, long);
const afterFirst =
  (short = '', long: readonly string[] = []): Reader =>
  (argv) =>
    argv.some((a) => isLong(a, 'reference', 3))
      ? operands(argv, short, long)
      : operands(argv, short, long).slice(1);
const option =
  (letter: string, long: string, short = ''): Reader =>
  (argv) => {
    const value = shortValue(argv, letter, short) ?? longValue(argv, long);
    return value === undefined || value === '-' ? [] : [value];
  };

const FIND_OUTPUTS = /^-(fprint|fprint0|fprintf|fls)$/;

const READERS: Record<string, Reader> = {
  tee: all(),
  cp: destination('St', ['target-directory', 'suffix', 'backup', 'sparse', 'reflink']),
  mv: destination('St', ['target-directory', 'suffix', 'backup'], true),
  install: (argv) =>
    /^-[A-Za-z]*d/.test(argv.find((a) => /^-[A-Za-z]*d/.test(a)) ?? '')
      ? all('gmoSt')(argv)
      : destination('gmoSt', ['group', 'mode', 'owner', 'suffix', 'target-directory'])(argv),
  ln: (argv) => {
    const ops = operands(argv, 'St', ['suffix', 'target-directory']);
    return ops.length === 1
      ? [posix.basename(ops[0] as string)]
      : destination('St', ['suffix', 'target-directory'])(argv);
  },
  rm: all(),
  rmdir: all(),
  unlink: all(),
  shred: all('ns', ['iterations', 'size']),
  srm: all(),
  touch: all('rtd', ['reference', 'date']),
  mkdir: all('m', ['mode', 'context']),
  mkfifo: all('m', ['mode']),
  truncate: all('sr', ['size', 'reference']),
  chmod: afterFirst('', ['reference']),
  chown: afterFirst('', ['reference', 'from']),
  chgrp: afterFirst('', ['reference']),
  sort: option('o', 'output', 'kotST'),
  tree: option('o', 'output', 'LPIo'),
  uniq: (argv) => operands(argv, 'fsw', ['skip-fields', 'skip-chars', 'check-chars']).slice(1, 2),
  xxd: (argv) => operands(argv, 'cglosn', []).slice(1, 2),
  dd: (argv) => argv.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)),
  // `find . -fprint FILE` (and -fprint0, -fprintf FILE FORMAT, -fls FILE) writes FILE: the fence must see it.
  find: (argv) =>
    argv.flatMap((a, i) =>
      FIND_OUTPUTS.test(a) && argv[i + 1] !== undefined ? [argv[i + 1] as string] : [],
    ),
  curl: curlWrites,
  wget: (argv) => [
    ...option('O', 'output-document', 'OoaPeUtTwQ')(argv),
    ...option('o', 'output-file', 'OoaPeUtTwQ')(argv),
  ],
  gcc: option('o', 'output', 'oIlLDUx'),
  cc: option('o', 'output', 'oIlLDUx'),
  'g++': option('o', 'output', 'oIlLDUx'),
  clang: option('o', 'output', 'oIlLDUx'),
  'clang++': option('o', 'output', 'oIlLDUx'),
  zip: (argv) => {
    const ops = operands(argv, 'bnitxP', ['temp-path', 'suffixes']);
    return argv.some((a) => /^-[A-Za-z]*m/.test(a) || isLong(a, 'move', 3)) ? ops : ops.slice(0, 1);
  },
  unzip: (argv) => [shortValue(argv, 'd', 'dxP') ?? '.'],
  tar: tarWrites,
  rsync: (argv) => {
    const ops = operands(argv, 'efBTM', [
      'exclude',
      'include',
      'filter',
      'rsh',
      'rsync-path',
      'temp-dir',
      'backup-dir',
      'suffix',
      'chmod',
      'files-from',
      'exclude-from',
      'include-from',
      'partial-dir',
      'compare-dest',
      'copy-dest',
      'link-dest',
      'log-file',
      'password-file',
    ]);
    const local = (p: string): boolean => !/^[^/]*:/.test(p);
    const dest = ops[ops.length - 1];
    const sources = argv.some((a) => isLong(a, 'remove-source-files', 3)) ? ops.slice(0, -1) : [];
    return [...sources, ...(dest !== undefined && ops.length > 1 ? [dest] : [])].filter(local);
  },
};

function curlWrites(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const [letter, long] of [
    ['o', 'output'],
    ['D', 'dump-header'],
    ['c', 'cookie-jar'],
  ] as const) {
    const v = shortValue(argv, letter, 'oDcdHuAbeEFKrTwXxy') ?? longValue(argv, long);
    if (v !== undefined && v !== '-') out.push(v);
  }
  for (const long of ['trace', 'trace-ascii', 'stderr', 'libcurl']) {
    const v = argv.find((a) => a === `--${long}` || a.startsWith(`--${long}=`))
      ? longValue(argv, long)
      : undefined;
    if (v !== undefined && v !== '-') out.push(v);
  }
  if (argv.some((a) => /^-[A-Za-z]*O/.test(a) || isLong(a, 'remote-name', 8))) {
    const dir = longValue(argv, 'output-dir') ?? '';
    for (const url of argv.filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a))) {
      const name = url
        .replace(/[?#].*$/, '')
        .split('/')
        .pop();
      if (name) out.push(dir ? posix.join(dir, name) : name);
    }
  }
  return out;
}

function tarWrites(argv: readonly string[]): string[] {
  const first = argv[1] ?? '';
  const mode =
    (first.startsWith('-') ? first.slice(1) : first) +
    argv
      .slice(2)
      .filter((a) => /^-[A-Za-z]+$/.test(a))
      .join('');
  const file = longValue(argv, 'file') ?? tarFile(argv);
  const extract = /x/.test(mode) || argv.some((a) => isLong(a, 'extract', 2) || isLong(a, 'get', 2));
  const create =
    /[cruA]/.test(mode) ||
    argv.some((a) => isLong(a, 'create', 2) || isLong(a, 'append', 2) || isLong(a, 'update', 2));
  const out: string[] = [];
  if (create && file !== undefined && file !== '-') out.push(file);
  if (extract) out.push(shortValue(argv, 'C', 'fCbLT') ?? longValue(argv, 'directory') ?? '.');
  return out;
}

/** `tar -czf out.tgz` / `tar czf out.tgz`: the word after the cluster that holds `f`. */
function tarFile(argv: readonly string[]): string | undefined {
  const at = argv.findIndex(
    (a, i) => i > 0 && /^-?[A-Za-z]*f[A-Za-z]*$/.test(a) && (i === 1 || a.startsWith('-')),
  );
  return at > 0 ? argv[at + 1] : undefined;
}

/**
 * The paths a program writes by its words: the write operands of the programs modelled here and
 * the implicit writes of git and the package managers (redirections are the caller's).
 * `truncated` lists those it empties first (`tee` without `-a`).
 * Contract: pure; paths come back as the words give them (may hold expansion marks).
 */
export function writeTargets(argv: readonly string[]): WriteTargets {
  const name = programName(argv[0]);
  const reader = isSystemProgram(argv[0]) ? READERS[name] : undefined;
  const own = reader ? reader(argv) : [];
  const teeTruncates = name === 'tee' && !argv.some((a) => /^-[A-Za-z]*a/.test(a) || isLong(a, 'append', 2));
  return { paths: [...own, ...implicitWrites(argv)], truncated: teeTruncates ? own : [] };
}

/** Joins a write target onto a cwd; null when either is only known at run time. */
export function resolveWrite(cwd: string | null, target: string): string | null {
  if (isDynamic(target)) return null;
  const joined = joinDir(cwd, target);
  return joined === '' ? '.' : joined;
}
