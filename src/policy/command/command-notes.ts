import { firstOperand, FETCHERS, gitSubcommand, programName } from './command-programs';

const REMOTE = new Set(['ssh', 'scp', 'sftp', 'rsync', 'ftp', 'mosh']);
const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule']);
const INSTALLERS: Record<string, RegExp> = {
  npm: /^(install|i|ci|add|update|publish|exec)$/,
  pnpm: /^(install|i|add|update|dlx|publish)$/,
  yarn: /^(install|add|up|upgrade|dlx|publish)$/,
  bun: /^(install|i|add|x)$/,
  pip: /^(install|download)$/,
  pip3: /^(install|download)$/,
  cargo: /^(install|fetch|publish|update)$/,
  go: /^(get|install|mod)$/,
  gem: /^(install|push)$/,
};

/**
 * "uses network: curl" for commands that reach the network, for the approval card.
 * Contract: pure; undefined for commands that (as far as their words show) stay local.
 */
export function networkNote(argv: readonly string[]): string | undefined {
  const name = programName(argv[0]);
  if (FETCHERS.has(name) || REMOTE.has(name)) return `uses network: ${name}`;
  if (name === 'npx' || name === 'bunx' || name === 'pnpx') return `uses network: ${name}`;
  if (name === 'git') {
    const { sub } = gitSubcommand(argv);
    return GIT_NETWORK.has(sub) ? `uses network: git ${sub}` : undefined;
  }
  const sub = firstOperand(argv);
  const pattern = INSTALLERS[name];
  return pattern && sub && pattern.test(sub) ? `uses network: ${name} ${sub}` : undefined;
}
