// The src/ of an earlier commit, for the benches that measure this redactor against it: taken with
// `git archive` into .bench-tmp/redact-<rev>/ (resolved against this repository's node_modules).
// Commits from before the secretlint preset was copied into the repository import it from its npm
// package, no longer installed: their import is pointed at the copy, which must be the version the
// commit pinned (or this stops, saying so).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRESET_SOURCE } from '../src/audit/rules/secretlint-preset';

/** The directory holding `rev`'s src/ (made on first use). */
export function baselineSource(repo: string, rev: string): string {
  const dir = join(repo, '.bench-tmp', `redact-${rev}`);
  if (!existsSync(join(dir, 'src'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', rev, 'src'], { cwd: repo, maxBuffer: 256 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  const stub = join(dir, 'src', 'audit', 'secret-preset.ts');
  const text = existsSync(stub) ? readFileSync(stub, 'utf8') : '';
  if (text.includes(`from '${PRESET_SOURCE.package}'`)) {
    const pinned = (
      JSON.parse(execFileSync('git', ['show', `${rev}:package.json`], { cwd: repo, encoding: 'utf8' })) as {
        dependencies?: Record<string, string>;
      }
    ).dependencies?.[PRESET_SOURCE.package];
    if (pinned !== PRESET_SOURCE.version)
      throw new Error(`${rev} pins ${PRESET_SOURCE.package}@${pinned}; the copy is ${PRESET_SOURCE.version}`);
    const copy = join(repo, 'src', 'audit', 'rules', 'secretlint-preset');
    writeFileSync(stub, text.replace(`from '${PRESET_SOURCE.package}'`, `from ${JSON.stringify(copy)}`));
  }
  return dir;
}
