import { beforeAll, describe, expect, it } from 'vitest';
import { loadCommandGuard } from '../../../src/policy/command/command-guard';
import { judgeWithoutGrammar } from '../../../src/policy/command/command-judge';
import { plainWords } from '../../../src/policy/command/command-plain';
import type { CommandGuard } from '../../../src/policy/command/command-types';
import { ALL_CASES } from './command-corpus';

let grammar: CommandGuard;
const readsWithoutGrammar = (line: string): boolean => judgeWithoutGrammar(line) !== undefined;
beforeAll(async () => {
  grammar = await loadCommandGuard();
});

/** Programs the rules know by name: read-only, writing, destructive, denied, opaque and running code. */
const PROGRAMS = [
  'ls',
  'cat',
  'pwd',
  'touch',
  'rm',
  'rmdir',
  'mkdir',
  'cp',
  'mv',
  'ln',
  'chmod',
  'chown',
  'dd',
  'git',
  'npm',
  'npx',
  'node',
  'python3',
  'make',
  'cargo',
  'go',
  'env',
  'nice',
  'timeout',
  'nohup',
  'xargs',
  'find',
  'fd',
  'grep',
  'rg',
  'sed',
  'awk',
  'tee',
  'truncate',
  'shred',
  'sudo',
  'doas',
  'su',
  'bash',
  'sh',
  'zsh',
  'eval',
  'exec',
  'source',
  '.',
  ':',
  'command',
  'builtin',
  'curl',
  'wget',
  'ssh',
  'scp',
  'rsync',
  'tar',
  'unzip',
  'kill',
  'pkill',
  'reboot',
  'crontab',
  'head',
  'tail',
  'wc',
  'sort',
  'diff',
  'echo',
  'printf',
  'true',
  'false',
  'test',
  'which',
  'type',
  'hash',
  'cd',
  'pushd',
  'alias',
  'trap',
  'ulimit',
  'umask',
  'set',
  'shopt',
  'jobs',
  'fg',
  'bg',
  'wait',
  'history',
  'fc',
  'read',
  'mapfile',
  'getopts',
  'let',
  'enable',
  'compgen',
  'caller',
  'kubectl',
  'docker',
  'terraform',
  'yarn',
  'pnpm',
  'pip',
  'uv',
  'vim',
  'less',
  'man',
  'stat',
  'file',
  'du',
  'df',
  'id',
  'whoami',
  'date',
  '/bin/rm',
  '/usr/bin/env',
  './run.sh',
  '../x/y',
  'bin/tool',
  'C:x',
  'a.b',
  '@x',
  '+x',
  '-x',
];

/** Arguments: options, paths outside and in, protected names, assignments, numbers, job-ish words. */
const ARGS = [
  '-la',
  '-rf',
  '-r',
  '-f',
  '--force',
  '--',
  '-c',
  '-e',
  '-i',
  '-n',
  '-delete',
  '-exec',
  '--output',
  '--output=x',
  '-o',
  'x',
  'y',
  'build',
  'src/a.ts',
  '.',
  '..',
  '/',
  '/etc/passwd',
  '/tmp/x',
  '.env',
  '.git',
  '.git/config',
  '.git/hooks/pre-commit',
  'package.json',
  '.npmrc',
  '.warden/x',
  'node_modules',
  'status',
  'log',
  'diff',
  'commit',
  'push',
  'reset',
  '--hard',
  'clean',
  '-fdx',
  'config',
  'core.pager',
  'install',
  'test',
  'run',
  'build',
  'ls',
  'rm',
  'sudo',
  'bash',
  'sh',
  'id',
  'CC=gcc',
  'A=1',
  'PATH=/x',
  'LD_PRELOAD=/x.so',
  '%',
  '%1',
  '50%',
  'a:b',
  'a,b',
  'x+y',
  'a@b',
  '0',
  '1',
  '2',
  '600',
  '9999999999',
  '-9',
  'HEAD~1x',
  'origin/main',
  'http://127.0.0.1:9/x',
  'user@host:/x',
  'if1',
  'done2',
  'then.',
  '-',
  '=',
  '==',
  ':',
  '.:.',
  '_',
  '_x_',
  '-_-',
];

/** A generator that repeats (mulberry32), so a failing line is the same line next run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** Plain lines: a program, up to four arguments, spaces doubled or around at random. */
function plainLines(count: number): string[] {
  const next = seeded(34);
  const alphabet = 'abcxyz019_./:,+@%=-';
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = [pick(next, PROGRAMS)];
    const n = Math.floor(next() * 5);
    for (let k = 0; k < n; k++) {
      if (next() < 0.8) words.push(pick(next, ARGS));
      else
        words.push(
          Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(next, [...alphabet])).join(''),
        );
    }
    const gap = () => (next() < 0.1 ? '  ' : ' ');
    lines.push((next() < 0.1 ? ' ' : '') + words.join(gap()) + (next() < 0.1 ? ' ' : ''));
  }
  return lines;
}

describe('a plain line is judged without the grammar exactly as with it (issue 34)', () => {
  const generated = plainLines(3000).filter(readsWithoutGrammar);
  const fromCorpus = ALL_CASES.map((c) => c.cmd).filter(readsWithoutGrammar);
  // First words bash reads oddly (a number, `.`, `:`, a dash) and the rules' sharp edges, written plain.
  const edges = [
    ...['1 x', '0', '2 ls', '+x', ':', '. x', '@x', ',', '/', '-', '- x', 'ls 2', 'cat 0', 'a:b'],
    ...['rm -rf /', 'rm -rf ..', 'nohup rm -rf /', 'sudo -n true', 'builtin cd /', 'cd / ', 'exec ls'],
    ...['git -c core.pager=x log', 'env PATH=/x ls', 'xargs rm', 'bash -c rm', 'sh -s', 'source x'],
    ...['find . -exec rm', 'find . -delete', 'git config core.hooksPath x', 'command -p ls'],
  ];

  it('most generated lines are plain, and so are some of the guard corpus', () => {
    expect(generated.length).toBeGreaterThan(2000);
    expect(fromCorpus.length).toBeGreaterThan(20);
    expect(edges.filter(readsWithoutGrammar)).toEqual(edges);
  });

  it.each([
    ['generated', generated],
    ['the guard corpus', fromCorpus],
    ['sharp edges', edges],
  ])('%s: the verdict with the grammar equals the verdict without it, line for line', (_, lines) => {
    const differ = lines.filter(
      (line) => JSON.stringify(judgeWithoutGrammar(line)) !== JSON.stringify(grammar.judge(line)),
    );
    expect(differ.map((line) => [line, judgeWithoutGrammar(line), grammar.judge(line)])).toEqual([]);
  });

  it('verdicts of every kind are among them (the comparison is not only of allows)', () => {
    const kinds = new Set(generated.map((line) => grammar.judge(line).kind));
    expect([...kinds].sort()).toEqual(['cannot_judge', 'deny', 'ok']);
    const destructive = generated.filter((line) => {
      const v = grammar.judge(line);
      return v.kind === 'ok' && v.destructive.length > 0;
    });
    expect(destructive.length).toBeGreaterThan(10);
  });

  it.each([
    ['ls -la', ['ls', '-la']],
    ['  touch   x  ', ['touch', 'x']],
    ['make CC=gcc -j 4', ['make', 'CC=gcc', '-j', '4']],
    ['env A=1 ls', ['env', 'A=1', 'ls']],
    ['printf 50%', ['printf', '50%']],
  ])('%j reads as its words', (line, words) => {
    expect(plainWords(line)).toEqual(words);
  });
});

describe('anything more than words is left to the grammar', () => {
  // Each is syntax to bash: an assignment, a job, a reserved word, a declaration, quotes, escapes,
  // expansions, globs, braces, a tilde, a comment, operators, redirections, other blanks, non-ASCII.
  const NOT_PLAIN = [
    'A=1 ls',
    '%1',
    '%',
    '= x',
    'time ls',
    'ls; done',
    'if true',
    'echo in',
    'coproc x',
    'function f',
    'select x',
    'export A=1',
    'declare -x A=1',
    'local a',
    'readonly A',
    'typeset A',
    'unset A',
    "echo 'x'",
    'echo "x"',
    'echo \\x',
    'echo $HOME',
    'echo `id`',
    'ls *',
    'ls ?',
    'ls [a]',
    'ls {a,b}',
    'ls ~',
    'ls ~/x',
    'ls # c',
    'ls #',
    'ls & ',
    'ls | wc',
    'ls > x',
    'ls < x',
    'ls && x',
    '(ls)',
    'ls\tx',
    'ls\nrm -rf x',
    'ls\r',
    'ls\u00a0x',
    'lś',
    '!ls',
    'ls !x',
    'a^b',
  ];

  // A model that wants out writes what looks like words to a reader and is more to bash or a
  // terminal: line ends and separators, look-alike blanks and letters, control bytes, `$IFS`.
  const DISGUISED = [
    'ls\n',
    'ls -la\nrm -rf ~',
    'ls\r\nrm x',
    'ls\u2028rm x',
    'ls\u200bx',
    'ls\u3000x',
    '\uff4c\uff53',
    'ls\u001b[2Jx',
    'ls\u0000x',
    'ls\u007fx',
    'ls${IFS}x',
    'ls\\ x',
    'ls -la;',
    'rm -rf x&',
    'touch x|y',
    'cat<x',
    'ls>x',
  ];

  it.each(DISGUISED)('disguised %j is not plain, and gets no verdict without the grammar', (line) => {
    expect(plainWords(line)).toBeUndefined();
    expect(judgeWithoutGrammar(line)).toBeUndefined();
  });

  it.each(NOT_PLAIN)('%j is not plain, and gets no verdict without the grammar', (line) => {
    expect(plainWords(line)).toBeUndefined();
    expect(judgeWithoutGrammar(line)).toBeUndefined();
  });

  it.each(['bash -c =x', 'sh -c A=1', 'trap =zc INT', 'nohup bash -c %1', 'xargs sh -c A=1'])(
    '%j: the code it runs is more than words, so it too waits for the grammar',
    (line) => {
      expect(plainWords(line)).toBeDefined();
      expect(judgeWithoutGrammar(line)).toBeUndefined();
      expect(grammar.judge(line)).toBeDefined();
    },
  );

  it.each(['', '   ', 'x'.repeat(10_001)])(
    "%#: an empty or too long line gets the full guard's verdict",
    (line) => {
      expect(judgeWithoutGrammar(line)).toEqual(grammar.judge(line));
    },
  );
});
