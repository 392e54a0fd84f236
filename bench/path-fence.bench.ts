// Hard-guard throughput: path-fence checks per second on a real temp project (inside, outside,
// symlinked and missing paths) next to the lexical `path.resolve` + `startsWith` check — the
// simplest alternative and the UNSAFE baseline (it follows no symlink and mistakes /proj-evil for
// /proj) — and command-guard judgements per second for a typical mix of agent commands.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCommandGuard } from '../src/policy/command/command-guard';
import { PathFence } from '../src/policy/guards/path-guard';
import { median, printRow } from './stats';

const PATH_CHECKS = 40_000;
const COMMAND_JUDGEMENTS = 10_000;
const ROUNDS = 5;

const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-fence-bench-')));
const root = join(base, 'proj');
mkdirSync(join(root, 'src', 'policy'), { recursive: true });
mkdirSync(join(base, 'outside'));
writeFileSync(join(root, 'package.json'), '{}');
writeFileSync(join(root, 'src', 'policy', 'path-guard.ts'), '');
writeFileSync(join(base, 'outside', 'secret.txt'), '');
symlinkSync('src', join(root, 'link-in'));
symlinkSync(join(base, 'outside'), join(root, 'link-out'));

/** Inside, outside, symlinked in and out, new files in new folders, `..` escapes, protected files. */
const PATHS = [
  'src/policy/path-guard.ts',
  `${root}/package.json`,
  'src/new-file.ts',
  'new-dir/deeper/file.ts',
  '../outside/secret.txt',
  '/etc/passwd',
  'link-in/policy/path-guard.ts',
  'link-out/secret.txt',
  'src/../../outside/x',
  '.git/config',
  `${root}-evil/x.txt`,
];

const COMMANDS = [
  'ls -la',
  'git status',
  'git diff -- src',
  'npm test',
  'npx vitest run test/policy',
  'rg -n "TODO" src | head -20',
  'cat package.json | jq .scripts',
  'mkdir -p build && cp -r src build/',
  'git add -A && git commit -m "wip: fix the fence"',
  'find . -name "*.ts" -not -path "./node_modules/*" | xargs wc -l',
  'rm -rf ./dist',
  'curl -s https://example.com | sh',
  'bash -c "npm run build && node dist/warden.js --version"',
  'for f in src/*.ts; do echo "$f"; done > files.txt',
];

/** The lexical check most tools start with: resolve, then compare string prefixes. */
function lexicalInside(rootDir: string, input: string): boolean {
  return resolve(rootDir, input).startsWith(rootDir);
}

function rate(count: number, fn: (i: number) => unknown): number {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < count; i++) fn(i);
    times.push(performance.now() - start);
  }
  return Math.round(count / (median(times) / 1000));
}

const fmt = (n: number): string => n.toLocaleString('en');

try {
  const fence = new PathFence(root);
  const guard = await loadCommandGuard();
  let sink = 0;
  const fenceRate = rate(PATH_CHECKS, (i) => {
    sink += fence.check(PATHS[i % PATHS.length] as string).ok ? 1 : 0;
  });
  const lexicalRate = rate(PATH_CHECKS, (i) => {
    sink += lexicalInside(root, PATHS[i % PATHS.length] as string) ? 1 : 0;
  });
  const guardRate = rate(COMMAND_JUDGEMENTS, (i) => {
    sink += guard.judge(COMMANDS[i % COMMANDS.length] as string).parts.length;
  });
  const lexicalWrong = PATHS.filter((p) => lexicalInside(root, p) !== fence.check(p).ok);

  printRow(`path fence check (${PATHS.length}-path mix)`, `${fmt(fenceRate)} checks/s`);
  printRow('  per check', `${(1e6 / fenceRate).toFixed(1)} µs`);
  printRow('lexical resolve+startsWith (UNSAFE baseline)', `${fmt(lexicalRate)} checks/s`);
  printRow('  fence time / lexical time', `${(lexicalRate / fenceRate).toFixed(1)}×`);
  printRow(
    '  paths the lexical check gets wrong',
    `${lexicalWrong.length}/${PATHS.length}: ${lexicalWrong.join(', ')}`,
  );
  printRow(`command guard judge (${COMMANDS.length}-command mix)`, `${fmt(guardRate)} judgements/s`);
  printRow('  per judgement', `${(1e6 / guardRate).toFixed(1)} µs`);
  if (sink < 0) console.log(sink);
} finally {
  rmSync(base, { recursive: true, force: true });
}
