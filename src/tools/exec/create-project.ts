import { join } from 'node:path';
import { lazySchema } from '../../lazy-zod';
import { describeFsError } from '../fs/fs-common';
import { createFileSafely, createFolderSafely } from '../fs/safe-fs-create';
import { scaffoldFiles, testCommand } from './project-templates';
import { defineTool } from '../types';

/**
 * The file operations create_project uses; tests swap them. Both go through verified folder
 * descriptors (safe-fs.ts), never by path: a command running meanwhile can put a link inside the
 * new folder between the fence's check and a write, and a mkdir -p or a write by path would follow
 * it out of the project.
 */
export type CreateProjectEffects = {
  /** Creates the project's folder; false when something already has the name. */
  makeFolder(root: string, path: string): Promise<boolean>;
  /** Creates a file that must not exist yet (missing folders made on the way), never through a link. */
  createFile(root: string, path: string, content: string): Promise<void>;
};

export const defaultCreateProjectEffects: CreateProjectEffects = {
  makeFolder: (root, path) => createFolderSafely({ path, root }),
  createFile: (root, path, content) => createFileSafely({ path, root }, Buffer.from(content, 'utf8')),
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
      const files = scaffoldFiles(args.name, args.type);
      const created: string[] = [];
      let current = args.name;
      try {
        // mkdir is atomic: a folder (or link) that appeared since the fence's check is refused too.
        if (!(await effects.makeFolder(ctx.root, verdict.path)))
          return { ok: false, error: `${args.name} already exists; choose another name.` };
        for (const file of files) {
          const abs = join(verdict.path, file.path);
          current = `${verdict.relative}/${file.path}`;
          // Created with O_EXCL, so before it there was nothing: the checkpoint need not open the path.
          await ctx.recordPreImage?.(abs, { kind: 'absent' });
          await effects.createFile(ctx.root, abs, file.content);
          created.push(current);
        }
      } catch (err) {
        const sofar = created.length > 0 ? ` Created so far: ${created.join(', ')}.` : '';
        return {
          ok: false,
          error: `Could not create the ${args.type} project: ${describeFsError(err, current)}${sofar}`,
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
