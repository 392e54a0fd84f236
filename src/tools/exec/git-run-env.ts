/**
 * What every command's environment sets for the git it may run: fsmonitor off (a
 * repository's `core.fsmonitor` names a program git would start on status, diff, ls-files …) and no
 * optional locks (status then writes no index, so no post-index-change hook runs). Both lose nothing a
 * person relies on: fsmonitor only makes status faster, and the optional lock only refreshes the
 * index's stat cache. Hooks of a commit the person approved still run. With this, and the gate
 * reading the repository's config for the rest (src/policy/git-repo-config.ts), `git status`,
 * `git diff`, `git log` and `git show` are truly read-only. An override given on the command line
 * (`git -c …`, `FOO=… git`) makes the command one the guard does not call read-only.
 */
export const GIT_RUN_ENV: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: '0',
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
};
