/**
 * Attacks on the one file warden writes on the person's behalf outside a tool call: the preference
 * line appended to AGENTS.md. A cloned repository controls what AGENTS.md is; nothing it makes of it
 * may carry the write out of the project or hang warden.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendInstruction, PREFERENCES_HEADING } from '../../../src/session/feedback/instructions-file';
import { tempDirs } from '../../helpers/temp-dirs';

const tempDir = tempDirs();
const temp = () => tempDir('warden-agentsmd-');

describe('the preference line in AGENTS.md', () => {
  it('is appended under one heading, added once', async () => {
    const root = temp();
    writeFileSync(join(root, 'AGENTS.md'), '# Project\nUse pnpm.');
    expect(await appendInstruction(root, '- Write under src/, not /tmp.')).toMatchObject({ ok: true });
    expect(await appendInstruction(root, '- Run npm test.')).toMatchObject({ ok: true });
    const text = readFileSync(join(root, 'AGENTS.md'), 'utf8');
    expect(text.split(PREFERENCES_HEADING)).toHaveLength(2);
    expect(text.endsWith('- Write under src/, not /tmp.\n- Run npm test.\n')).toBe(true);
  });

  it('AGENTS.md symlinked to a file outside the project: refused, the outside file unchanged', async () => {
    const root = temp();
    const outside = join(temp(), 'bashrc');
    writeFileSync(outside, 'secret config\n');
    symlinkSync(outside, join(root, 'AGENTS.md'));
    const result = await appendInstruction(root, '- echo pwned');
    expect(result.ok).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('secret config\n');
  });

  it('AGENTS.md symlinked to a file inside the project: the fence resolves it, and the line goes into that file', async () => {
    const root = temp();
    writeFileSync(join(root, 'real.md'), 'inside\n');
    symlinkSync(join(root, 'real.md'), join(root, 'AGENTS.md'));
    const result = await appendInstruction(root, '- a line');
    expect(result).toEqual({ ok: true, file: join(root, 'real.md') });
    expect(readFileSync(join(root, 'real.md'), 'utf8')).toContain('- a line');
    expect(lstatSync(join(root, 'AGENTS.md')).isSymbolicLink()).toBe(true);
  });

  it('AGENTS.md as a named pipe: refused at once, never blocks', async () => {
    const root = temp();
    execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
    const result = await appendInstruction(root, '- a line');
    expect(result.ok).toBe(false);
  });
});
