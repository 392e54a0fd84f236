/** Finds the demo's files (script and project) and makes a scratch copy of the project. */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoScratchPrefix, sweepStaleDemoScratch } from './demo-scratch';

/**
 * The `assets/demo` folder, found by walking up from this module: that works from src/ under
 * vitest or tsx and from the bundled dist/warden.js alike.
 * Contract: throws an Error saying where it looked when no folder is found.
 */
export function findDemoAssetsDir(from: string = import.meta.url): string {
  const start = from.startsWith('file:') ? dirname(fileURLToPath(from)) : from;
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'assets', 'demo');
    if (existsSync(join(candidate, 'script.json'))) return candidate;
    if (dirname(dir) === dir)
      throw new Error(`warden could not find assets/demo above ${start}; is the installation complete?`);
  }
}

/**
 * Copies the demo project to a fresh folder and returns its real path.
 * The project sits one level inside its own temp folder, so the demo's deliberate write to
 * `../outside-the-project.txt` could only ever land in that folder, should a fence ever fail.
 * The folder is named after this process; copies left by wardens that are gone are removed first.
 * Contract: rejects when the copy fails; never touches an existing folder of a running warden.
 */
export async function prepareDemoProject(targetParentDir: string = tmpdir()): Promise<string> {
  await mkdir(targetParentDir, { recursive: true });
  sweepStaleDemoScratch(targetParentDir);
  const scratch = await mkdtemp(join(targetParentDir, demoScratchPrefix()));
  const project = join(scratch, 'greet-demo');
  await cp(join(findDemoAssetsDir(), 'project'), project, {
    recursive: true,
    errorOnExist: true,
    force: false,
  });
  return realpath(project);
}
