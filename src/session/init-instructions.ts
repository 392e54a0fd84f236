/**
 * The first AGENTS.md `/init` proposes: what warden can tell of the project without a model — its
 * name and description, the top-level folders, the commands to install, build, test and lint (from
 * package.json and its lock file, a Makefile, Cargo.toml, go.mod, pyproject.toml) — and headings for
 * what only the person knows. Everything is read through the path fence, regular files only, capped.
 */
import { readdirSync } from 'node:fs';
import type { PathFence } from '../policy/guards/path-guard';
import { readProjectFile } from '../policy/safe-read';

const CAP = 256 * 1024;
/** Folders no one documents as the project's layout. */
const SKIP = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'coverage', 'vendor', '__pycache__']);

type Fence = Pick<PathFence, 'check' | 'root'>;

function read(fence: Fence, name: string): string | undefined {
  const got = readProjectFile(fence as PathFence, name, CAP);
  return got.kind === 'ok' && !got.truncated ? got.text : undefined;
}

/** One line of plain text: no control characters, no backticks that would break the Markdown. */
const plain = (s: string, max = 160) =>
  s
    .replace(/[\u0000-\u001f\u007f`]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);

type Commands = {
  install?: string;
  build?: string;
  test?: string;
  lint?: string;
  typecheck?: string;
  dev?: string;
};

function nodeCommands(fence: Fence, scripts: Record<string, unknown>): Commands {
  const pm = read(fence, 'pnpm-lock.yaml')
    ? 'pnpm'
    : read(fence, 'yarn.lock')
      ? 'yarn'
      : read(fence, 'bun.lock')
        ? 'bun'
        : 'npm';
  const run = (name: string) =>
    typeof scripts[name] === 'string' ? (name === 'test' ? `${pm} test` : `${pm} run ${name}`) : undefined;
  const out: Commands = {
    install: pm === 'npm' && read(fence, 'package-lock.json') ? 'npm ci' : `${pm} install`,
  };
  for (const [key, names] of [
    ['build', ['build']],
    ['test', ['test']],
    ['lint', ['lint']],
    ['typecheck', ['typecheck', 'type-check', 'tsc']],
    ['dev', ['dev', 'start']],
  ] as const) {
    const found = names.map(run).find(Boolean);
    if (found) out[key] = found;
  }
  return out;
}

function makeTargets(text: string): Commands {
  const targets = new Set([...text.matchAll(/^([A-Za-z][\w.-]*):(?!=)/gm)].map((m) => m[1]));
  const out: Commands = {};
  for (const key of ['build', 'test', 'lint'] as const) if (targets.has(key)) out[key] = `make ${key}`;
  return out;
}

/** The project's facts as far as its files tell them. Contract: never throws. */
export function projectFacts(fence: Fence): {
  name: string;
  description?: string;
  folders: string[];
  commands: Commands;
  languages: string[];
} {
  const name = fence.root.split('/').filter(Boolean).pop() ?? 'this project';
  let description: string | undefined;
  let commands: Commands = {};
  const languages: string[] = [];
  const pkgText = read(fence, 'package.json');
  if (pkgText) {
    try {
      const pkg = JSON.parse(pkgText) as { description?: unknown; scripts?: unknown };
      if (typeof pkg.description === 'string' && pkg.description.trim()) description = plain(pkg.description);
      const scripts =
        pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
      commands = nodeCommands(fence, scripts);
      languages.push(read(fence, 'tsconfig.json') ? 'TypeScript' : 'JavaScript');
    } catch {
      // A package.json that does not parse tells nothing.
    }
  }
  if (read(fence, 'Cargo.toml')) {
    languages.push('Rust');
    commands = { build: 'cargo build', test: 'cargo test', lint: 'cargo clippy', ...commands };
  }
  if (read(fence, 'go.mod')) {
    languages.push('Go');
    commands = { build: 'go build ./...', test: 'go test ./...', lint: 'go vet ./...', ...commands };
  }
  const pyproject = read(fence, 'pyproject.toml');
  if (pyproject) {
    languages.push('Python');
    if (/pytest/.test(pyproject)) commands = { test: 'pytest', ...commands };
  }
  const makefile = read(fence, 'Makefile');
  if (makefile) commands = { ...makeTargets(makefile), ...commands };
  if (!description) {
    const readme = read(fence, 'README.md');
    const line = readme
      ?.split('\n')
      .map((l) => l.trim())
      .find(
        (l) => l && !l.startsWith('#') && !l.startsWith('![') && !l.startsWith('<') && !l.startsWith('['),
      );
    if (line) description = plain(line);
  }
  let folders: string[] = [];
  try {
    folders = readdirSync(fence.root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIP.has(e.name))
      .map((e) => plain(e.name, 60))
      .filter(Boolean)
      .sort()
      .slice(0, 20);
  } catch {
    // An unreadable root lists no folders.
  }
  return { name: plain(name, 80), ...(description ? { description } : {}), folders, commands, languages };
}

/** The text of a first AGENTS.md for the project. */
export function firstAgentsMd(fence: Fence): string {
  const f = projectFacts(fence);
  const lines = [
    '# AGENTS.md',
    '',
    'Instructions for coding agents working in this project (warden, Codex and others read this file).',
    'Written by `/init` from what the project files show; correct it and add what only you know.',
    '',
    '## Project',
    '',
    `${f.name}${f.description ? `: ${f.description}` : ''}${f.languages.length ? ` (${f.languages.join(', ')})` : ''}`,
  ];
  if (f.folders.length) lines.push('', '## Layout', '', ...f.folders.map((d) => `- \`${d}/\``));
  const labels: [keyof Commands, string][] = [
    ['install', 'Install'],
    ['build', 'Build'],
    ['test', 'Test'],
    ['lint', 'Lint'],
    ['typecheck', 'Type-check'],
    ['dev', 'Run'],
  ];
  const known = labels.filter(([k]) => f.commands[k]);
  lines.push('', '## Commands', '');
  if (known.length) lines.push(...known.map(([k, label]) => `- ${label}: \`${f.commands[k]}\``));
  else
    lines.push(
      '- (How to build and test this project: the commands an agent should run before it says it is done.)',
    );
  lines.push(
    '',
    '## Conventions',
    '',
    '- (Code style, where tests go, naming, what a change must come with.)',
    '',
    '## Do not',
    '',
    '- (Files or folders agents must not change, commands they must not run.)',
    '',
  );
  return lines.join('\n');
}
