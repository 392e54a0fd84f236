import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSTRUCTIONS_CAP, readAgentsMd, systemPrompt } from '../../src/agent/system-prompt';
import { PathFence } from '../../src/policy/guards/path-guard';
import { readProjectFile, readRegularFile } from '../../src/policy/safe-read';

let base: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-instr-')));
  root = join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('readAgentsMd: through the fence, a regular file only, 64 KB', () => {
  it('reads a plain AGENTS.md', () => {
    writeFileSync(join(root, 'AGENTS.md'), 'Use pnpm.\n');
    expect(readAgentsMd(root)).toBe('Use pnpm.\n');
  });

  it('a symlink to a secret outside the project is not read, and says why', () => {
    writeFileSync(join(base, 'id_rsa'), 'SECRET-KEY-MATERIAL');
    symlinkSync(join(base, 'id_rsa'), join(root, 'AGENTS.md'));
    const skipped: string[] = [];
    const text = readAgentsMd(root, (reason) => skipped.push(reason));
    expect(text).toBeUndefined();
    expect(skipped.join()).toMatch(/outside the project/);
    expect(systemPrompt({ root, mode: 'manual', ...(text ? { instructions: text } : {}) })).not.toContain(
      'SECRET',
    );
  });

  it('a symlink inside the project to a regular file is read', () => {
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'agents.md'), 'inside');
    symlinkSync(join(root, 'docs', 'agents.md'), join(root, 'AGENTS.md'));
    expect(readAgentsMd(root)).toBe('inside');
  });

  it('/dev/zero behind AGENTS.md is refused at once, not read forever', () => {
    symlinkSync('/dev/zero', join(root, 'AGENTS.md'));
    const started = performance.now();
    expect(readAgentsMd(root)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a fifo named AGENTS.md does not hang: refused as not a regular file', () => {
    execFileSync('mkfifo', [join(root, 'AGENTS.md')]);
    const skipped: string[] = [];
    expect(readAgentsMd(root, (r) => skipped.push(r))).toBeUndefined();
    expect(skipped.join()).toMatch(/named pipe/);
  });

  it('more than 64 KB is cut with a note', () => {
    writeFileSync(join(root, 'AGENTS.md'), 'x'.repeat(INSTRUCTIONS_CAP + 5000));
    const text = readAgentsMd(root) ?? '';
    expect(text.startsWith('x'.repeat(INSTRUCTIONS_CAP))).toBe(true);
    expect(text).toMatch(/longer than 64 KB; the rest was left out/);
    expect(text.length).toBeLessThan(INSTRUCTIONS_CAP + 200);
  });
});

describe('readRegularFile / readProjectFile', () => {
  it.each([
    ['a folder', () => mkdirSync(join(root, 'f')), /folder/],
    ['a device', () => symlinkSync('/dev/null', join(root, 'f')), /outside the project|device/],
  ])('%s is refused', (_label, make, reason) => {
    make();
    const read = readProjectFile(new PathFence(root, []), 'f', 100);
    expect(read.kind).toBe('refused');
    expect(read.kind === 'refused' && read.reason).toMatch(reason);
  });

  it('with noFollow, a symlink as the last name is refused even when it points inside', () => {
    writeFileSync(join(root, 'real'), 'x');
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(readRegularFile(join(root, 'link'), 10, { noFollow: true })).toMatchObject({
      kind: 'refused',
      reason: /symbolic link/,
    });
    expect(readRegularFile(join(root, 'link'), 10)).toMatchObject({ kind: 'ok', text: 'x' });
  });

  it('a missing file (or folder on the way) is missing, not an error', () => {
    expect(readRegularFile(join(root, 'no', 'such'), 10).kind).toBe('missing');
  });
});
