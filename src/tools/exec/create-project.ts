import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy-zod';
import { describeFsError } from '../fs/fs-common';
import { scaffoldFiles, testCommand } from './project-templates';
import { defineTool } from '../types';

/** The file operations create_project uses; tests swap them. */
export type CreateProjectEffects = {
  exists(path: string): Promise<boolean>;
  mkdirp(path: string): Promise<void>;
  /** Creates a file that must not exist yet. */
  writeNew(path: string, content: string): Promise<void>;
};

export const defaultCreateProjectEffects: CreateProjectEffects = {
  exists: (path) =>
    lstat(path).then(
      () => true,
      () => false,
    ),
  mkdirp: async (path) => {
    await mkdir(path, { recursive: true });
  },
  writeNew: (path, content) => writeFile(path, content, { flag: 'wx' }),
};

// One folder name: starts with a letter or digit, no slashes, so never `.`, `..` or a hidden folder.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const schema = lazySchema((z) =>
  z.strictObject({
    name: z
      .string()
      .regex(NAME, 'a simple folder name: letters, digits, . _ -, starting with a letter or digit'),
    type: z.enum(['java', 'python', 'node']),
  }),
);

/**
 * create_project: a small runnable project (code plus one passing test) in a new folder of the project root.
 * Contract: never throws; refuses an existing folder; records each file's pre-image (absent) before creating it.
 */
export function createCreateProjectTool(effects: CreateProjectEffects = defaultCreateProjectEffects) {
  return defineTool({
    name: 'create_project',
    summary: (args) => args.name,
    kind: 'write',
    guarded: { paths: ['name'] },
    reversible: true,
    changesFiles: true,
    description: 'Scaffold a java, python or node project with one passing test.',
    schema,
    async execute(args, ctx) {
      const verdict = ctx.fence.check(args.name);
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      if (await effects.exists(verdict.path))
        return { ok: false, error: `${args.name} already exists; choose another name.` };
      const files = scaffoldFiles(args.name, args.type);
      const created: string[] = [];
      try {
        await effects.mkdirp(verdict.path);
        // Re-check after mkdir: the folder must still resolve where it did.
        const again = ctx.fence.check(args.name);
        if (!again.ok || again.path !== verdict.path)
          return { ok: false, error: `${args.name} changed on disk while being created; stopped.` };
        for (const file of files) {
          const abs = join(verdict.path, file.path);
          await ctx.recordPreImage?.(abs);
          await effects.mkdirp(dirname(abs));
          await effects.writeNew(abs, file.content);
          created.push(`${verdict.relative}/${file.path}`);
        }
      } catch (err) {
        const sofar = created.length > 0 ? ` Created so far: ${created.join(', ')}.` : '';
        return {
          ok: false,
          error: `Could not create the ${args.type} project: ${describeFsError(err, args.name)}${sofar}`,
          data: { files: created },
        };
      }
      const output = [
        `Created ${args.type} project ${verdict.relative}/ with ${created.length} files:`,
        ...created.map((f) => `  ${f}`),
        `Run its tests: cd ${verdict.relative} && ${testCommand(args.type)}`,
      ];
      return { ok: true, output: output.join('\n'), data: { dir: verdict.relative, files: created } };
    },
  });
}
