import { gitDestructive } from './command-destructive-git';
import { hasLong, hasShort, isLong, operands } from './command-gnu-options';
import { firstOperand, programName } from './command-programs';

type Check = (argv: readonly string[], name: string) => string | undefined;

const DELETERS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'rimraf']);
const PUBLISHERS: Record<string, string> = {
  npm: 'publish|unpublish',
  pnpm: 'publish',
  yarn: 'publish',
  cargo: 'publish|yank',
  twine: 'upload',
  gem: 'push|yank',
  poetry: 'publish',
  flit: 'publish',
  hatch: 'publish',
  uv: 'publish',
};
const CONTAINER_DELETES = /^(rm|rmi|kill)$/;
const CONTAINER_GROUP_DELETES = /^(rm|prune|remove)$/;

const has = (argv: readonly string[], pattern: RegExp): boolean => argv.some((a) => pattern.test(a));
/** Devices that read as empty or junk: copying one onto a file empties or garbles it. */
const EMPTY_SOURCES = /^\/dev\/(null|zero|random|urandom|full)$/;

/** mv, cp, ln, install, sed, tar, zip, rsync: the forms that lose data. */
function files(argv: readonly string[], name: string): string | undefined {
  switch (name) {
    case 'mv':
      return 'moves files away, and overwrites the destination if it exists (mv)';
    case 'cp':
    case 'install': {
      const short = name === 'cp' ? 'St' : 'gmoSt';
      const source = operands(argv, short, ['target-directory', 'suffix', 'mode', 'owner', 'group']).find(
        (o) => EMPTY_SOURCES.test(o),
      );
      return source ? `empties or overwrites the destination with ${source} (${name})` : undefined;
    }
    case 'ln':
      return hasShort(argv, 'f', 'St') || hasLong(argv, 'force', 'remove-destination')
        ? 'replaces an existing file with a link (ln -f)'
        : undefined;
    case 'tar':
      return hasLong(argv, 'remove-files') ? 'deletes the files it archives (tar --remove-files)' : undefined;
    case 'zip':
      return hasShort(argv, 'm', 'bnitxP') || argv.some((a) => isLong(a, 'move', 3))
        ? 'deletes the files it archives (zip -m)'
        : undefined;
    case 'rsync':
      // --del, --delete, --delete-after, --delete-excluded …
      return argv.some((a) => /^--del/.test(a) || isLong(a, 'remove-source-files', 3))
        ? 'deletes files (rsync --delete / --remove-source-files)'
        : undefined;
    default:
      return undefined;
  }
}

function container(argv: readonly string[], name: string): string | undefined {
  const sub = firstOperand(argv);
  if (!sub) return undefined;
  const verb = firstOperand(argv, argv.indexOf(sub) + 1);
  if (CONTAINER_DELETES.test(sub)) return `deletes containers or images (${name} ${sub})`;
  if (
    /^(system|container|image|volume|network|builder|buildx)$/.test(sub) &&
    verb &&
    CONTAINER_GROUP_DELETES.test(verb)
  ) {
    return `deletes ${sub} data (${name} ${sub} ${verb})`;
  }
  if (
    (sub === 'compose' || name === 'docker-compose') &&
    argv.includes('down') &&
    has(argv, /^(-v|--volumes|--rmi)$/)
  ) {
    return `deletes volumes or images (${name} compose down)`;
  }
  return undefined;
}

const CHECKS: Record<string, Check> = {
  git: (argv) => gitDestructive(argv),
  mv: files,
  cp: files,
  install: files,
  ln: files,
  tar: files,
  zip: files,
  rsync: files,
  docker: container,
  podman: container,
  'docker-compose': container,
  truncate: () => 'truncates files (truncate)',
  dd: (argv) =>
    argv.some((a) => a.startsWith('of=')) ? 'overwrites a file with raw data (dd of=…)' : undefined,
  find: (argv) => (argv.includes('-delete') ? 'deletes the files it finds (find -delete)' : undefined),
  kubectl: (argv) =>
    firstOperand(argv) === 'delete' ? 'deletes cluster resources (kubectl delete)' : undefined,
  helm: (argv) =>
    /^(uninstall|delete)$/.test(firstOperand(argv) ?? '')
      ? 'uninstalls a release (helm uninstall)'
      : undefined,
  terraform: (argv, name) => infraDestroy(argv, name),
  tofu: (argv, name) => infraDestroy(argv, name),
  pulumi: (argv, name) => infraDestroy(argv, name),
  crontab: (argv) => (argv.includes('-r') ? 'removes every scheduled job (crontab -r)' : undefined),
};

function infraDestroy(argv: readonly string[], name: string): string | undefined {
  const sub = firstOperand(argv);
  if (sub === 'destroy' || (sub === 'apply' && argv.includes('-destroy')))
    return `destroys infrastructure (${name} destroy)`;
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
