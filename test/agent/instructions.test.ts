import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  foldersTo,
  INSTRUCTIONS_CAP,
  INSTRUCTIONS_TOTAL_CAP,
  instructionsBlock,
  readInstructions,
} from '../../src/agent/instructions';
import { PathFence } from '../../src/policy/guards/path-guard';
import { firstAgentsMd } from '../../src/session/init-instructions';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('readInstructions: yours, the project’s, then each folder’s down to the working directory', () => {
  it('reads them in that order, with path, scope and size', () => {
    const home = temp('warden-ins-home-');
    const root = temp('warden-ins-proj-');
    write(join(home, 'AGENTS.md'), 'Answer in British English.\n');
    write(join(root, 'AGENTS.md'), 'Use pnpm.\n');
    write(join(root, 'pkg', 'AGENTS.md'), 'This package is ESM.\n');
    write(join(root, 'pkg', 'web', 'AGENTS.md'), 'React 19 here.\n');
    write(join(root, 'other', 'AGENTS.md'), 'not on the way\n');
    const read = readInstructions({ home, root, cwd: join(root, 'pkg', 'web') });
    expect(read.skipped).toEqual([]);
    expect(read.files.map((f) => [f.scope, f.path, f.bytes])).toEqual([
      ['person', join(home, 'AGENTS.md'), 27],
      ['project', join(root, 'AGENTS.md'), 10],
      ['folder', join(root, 'pkg', 'AGENTS.md'), 21],
      ['folder', join(root, 'pkg', 'web', 'AGENTS.md'), 15],
    ]);
    const block = instructionsBlock(read.files) ?? '';
    expect(block.indexOf('British')).toBeLessThan(block.indexOf('pnpm'));
    expect(block.indexOf('pnpm')).toBeLessThan(block.indexOf('ESM'));
    expect(block.indexOf('ESM')).toBeLessThan(block.indexOf('React 19'));
    expect(block).toContain('The AGENTS.md of pkg/web/ (for work under that folder');
    expect(block).not.toContain('not on the way');
  });

  it('a working directory outside the project, or the root itself, adds no folder', () => {
    const root = temp('warden-ins-proj-');
    expect(foldersTo(root, root)).toEqual([]);
    expect(foldersTo(root, join(root, '..'))).toEqual([]);
    expect(foldersTo(root, '/etc')).toEqual([]);
    expect(foldersTo(root, join(root, 'a', 'b'))).toEqual(
      ['a', 'b'].map((_, i, p) => p.slice(0, i + 1).join('/')),
    );
  });

  it('a folder’s AGENTS.md that leads out of the project is skipped with the reason', () => {
    const home = temp('warden-ins-home-');
    const root = temp('warden-ins-proj-');
    const outside = temp('warden-ins-out-');
    write(join(outside, 'secret'), 'SECRET-KEY');
    mkdirSync(join(root, 'pkg'));
    symlinkSync(join(outside, 'secret'), join(root, 'pkg', 'AGENTS.md'));
    const read = readInstructions({ home, root, cwd: join(root, 'pkg') });
    expect(read.files).toEqual([]);
    expect(read.skipped.join()).toMatch(/pkg\/AGENTS.md was not loaded.*outside the project/);
  });

  it('cuts one file at 64 KB and all of them at 128 KB, with a note each time', () => {
    const home = temp('warden-ins-home-');
    const root = temp('warden-ins-proj-');
    write(join(home, 'AGENTS.md'), 'a'.repeat(INSTRUCTIONS_CAP + 10));
    write(join(root, 'AGENTS.md'), 'b'.repeat(INSTRUCTIONS_CAP - 100));
    write(join(root, 'x', 'AGENTS.md'), 'c'.repeat(1000));
    write(join(root, 'x', 'y', 'AGENTS.md'), 'd');
    const read = readInstructions({ home, root, cwd: join(root, 'x', 'y') });
    const [person, project, folder] = read.files;
    expect(person?.truncated).toBe(true);
    expect(person?.text).toContain('longer than 64 KB');
    expect(project?.truncated).toBeUndefined();
    expect(folder?.truncated).toBe(true);
    expect(folder?.text).toContain('at most 128 KB');
    const total = read.files.reduce((n, f) => n + (f.text.match(/^([abcd])\1*/)?.[0].length ?? 0), 0);
    expect(total).toBeLessThanOrEqual(INSTRUCTIONS_TOTAL_CAP);
    expect(read.skipped.join()).toContain('x/y/AGENTS.md was not loaded');
  });
});

describe('/init’s first AGENTS.md', () => {
  it('names the project, its folders and the commands its files declare', () => {
    const root = temp('warden-init-proj-');
    write(
      join(root, 'package.json'),
      JSON.stringify({
        description: 'Greets `people`',
        scripts: { test: 'vitest', build: 'tsc', lint: 'biome check' },
      }),
    );
    write(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n');
    write(join(root, 'tsconfig.json'), '{}');
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(root, '.git'));
    const text = firstAgentsMd(new PathFence(root, []));
    expect(text).toContain('Greets people (TypeScript)');
    expect(text).toContain('- `src/`');
    expect(text).not.toContain('node_modules');
    expect(text).not.toContain('.git/');
    expect(text).toContain('- Install: `pnpm install`');
    expect(text).toContain('- Test: `pnpm test`');
    expect(text).toContain('- Build: `pnpm run build`');
    expect(text).toContain('- Lint: `pnpm run lint`');
  });

  it('with nothing to go by, it says what to write instead of inventing commands', () => {
    const text = firstAgentsMd(new PathFence(temp('warden-init-empty-'), []));
    expect(text).toContain('## Commands');
    expect(text).toContain('(How to build and test this project');
    expect(text).not.toMatch(/Test: `/);
  });
});
