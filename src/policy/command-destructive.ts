import { firstOperand, gitSubcommand, programName } from './command-programs';

type Check = (argv: readonly string[], name: string) => string | undefined;

const DELETERS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'rimraf']);
const PUBLISHERS: Record<string, string> = {
  npm: 'publish|unpublish', pnpm: 'publish', yarn: 'publish', cargo: 'publish|yank', twine: 'upload',
  gem: 'push|yank', poetry: 'publish', flit: 'publish', hatch: 'publish', uv: 'publish',
};
const CONTAINER_DELETES = /^(rm|rmi|kill)$/;
const CONTAINER_GROUP_DELETES = /^(rm|prune|remove)$/;

const has = (argv: readonly string[], pattern: RegExp): boolean => argv.some((a) => pattern.test(a));
/** A short-option cluster containing the letter: `-fd`, `-xdf`. */
const shortFlag = (letter: string): RegExp => new RegExp(`^-[A-Za-z]*${letter}[A-Za-z]*$`);

function git(argv: readonly string[]): string | undefined {
  const { sub, rest } = gitSubcommand(argv);
  switch (sub) {
    case 'push':
      if (has(rest, /^(--force|--force-with-lease|--force-if-includes)(=|$)/) || has(rest, shortFlag('f'))) {
        return 'force-pushes, rewriting remote history (git push --force)';
      }
      if (has(rest, /^(--delete|-d|--mirror|--prune)$/) || rest.some((a) => /^\+|^:/.test(a))) {
        return 'deletes or overwrites remote refs (git push)';
      }
      return undefined;
    case 'reset':
      return rest.includes('--hard') || rest.includes('--merge') ? 'discards uncommitted changes (git reset --hard)' : undefined;
    case 'clean':
      return has(rest, /^--force$/) || has(rest, shortFlag('f')) ? 'deletes untracked files (git clean -f)' : undefined;
    case 'checkout':
      if (rest.includes('--') || rest.includes('.') || has(rest, /^(-f|--force)$/)) return 'discards uncommitted changes (git checkout --)';
      return undefined;
    case 'restore':
      // `git restore --staged x` only unstages; anything touching the worktree discards edits.
      return rest.includes('--staged') && !has(rest, /^(--worktree|-W)$/) ? undefined : 'discards uncommitted changes (git restore)';
    case 'branch':
      return has(rest, /^(-D|--delete)$/) || (has(rest, /^-d$/) && has(rest, /^(-f|--force)$/)) ? 'deletes a branch (git branch -D)' : undefined;
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear' ? `drops stashed changes (git stash ${rest[0]})` : undefined;
    case 'rm':
      return rest.includes('--cached') ? undefined : 'deletes files (git rm)';
    case 'filter-branch':
    case 'filter-repo':
      return `rewrites repository history (git ${sub})`;
    default:
      return undefined;
  }
}

function container(argv: readonly string[], name: string): string | undefined {
  const sub = firstOperand(argv);
  if (!sub) return undefined;
  const verb = firstOperand(argv, argv.indexOf(sub) + 1);
  if (CONTAINER_DELETES.test(sub)) return `deletes containers or images (${name} ${sub})`;
  if (/^(system|container|image|volume|network|builder|buildx)$/.test(sub) && verb && CONTAINER_GROUP_DELETES.test(verb)) {
    return `deletes ${sub} data (${name} ${sub} ${verb})`;
  }
  if ((sub === 'compose' || name === 'docker-compose') && argv.includes('down') && has(argv, /^(-v|--volumes|--rmi)$/)) {
    return `deletes volumes or images (${name} compose down)`;
  }
  return undefined;
}

const CHECKS: Record<string, Check> = {
  git,
  docker: container,
  podman: container,
  'docker-compose': container,
  truncate: () => 'truncates files (truncate)',
  dd: (argv) => (argv.some((a) => a.startsWith('of=')) ? 'overwrites a file with raw data (dd of=…)' : undefined),
  find: (argv) => (argv.includes('-delete') ? 'deletes the files it finds (find -delete)' : undefined),
  kubectl: (argv) => (firstOperand(argv) === 'delete' ? 'deletes cluster resources (kubectl delete)' : undefined),
  helm: (argv) => (/^(uninstall|delete)$/.test(firstOperand(argv) ?? '') ? 'uninstalls a release (helm uninstall)' : undefined),
  terraform: (argv, name) => infraDestroy(argv, name),
  tofu: (argv, name) => infraDestroy(argv, name),
  pulumi: (argv, name) => infraDestroy(argv, name),
  crontab: (argv) => (argv.includes('-r') ? 'removes every scheduled job (crontab -r)' : undefined),
};

function infraDestroy(argv: readonly string[], name: string): string | undefined {
  const sub = firstOperand(argv);
  if (sub === 'destroy' || (sub === 'apply' && argv.includes('-destroy'))) return `destroys infrastructure (${name} destroy)`;
  return undefined;
}

/**
 * Why a simple command (already unwrapped) destroys or publishes something, or undefined.
 * Contract: pure; the answer raises the policy's risk to high, it never allows or denies.
 */
export function destructiveReason(argv: readonly string[]): string | undefined {
  const name = programName(argv[0]);
  if (DELETERS.has(name)) return `deletes files (${name})`;
  const publish = PUBLISHERS[name];
  if (publish && new RegExp(`^(${publish})$`).test(firstOperand(argv) ?? '')) {
    return `publishes a package (${name} ${firstOperand(argv)})`;
  }
  return CHECKS[name]?.(argv, name);
}
