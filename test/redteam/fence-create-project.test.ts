/**
 * Red team, path fence: create_project. The folder is new, but a command running meanwhile (a
 * sub-agent's, or a process an earlier command left behind) can put a link inside it between the
 * fence's check and the writes. Driven deterministically through the tool's effects: the link
 * appears just before the first file is created. Nothing may be written outside the project.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CreateProjectEffects,
  createCreateProjectTool,
  defaultCreateProjectEffects,
} from '../../src/tools/exec/create-project';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';

let t: TestToolContext;
afterEach(() => t?.cleanup());

/** The default effects, with `before` run once, just before the first file is created. */
function racing(before: () => void): CreateProjectEffects {
  let fired = false;
  return {
    ...defaultCreateProjectEffects,
    createFile: (root, path, content) => {
      if (!fired) {
        fired = true;
        before();
      }
      return defaultCreateProjectEffects.createFile(root, path, content);
    },
  };
}

describe('create_project under a racing link', () => {
  it('a sub-folder swapped in as a link to an outside folder: nothing is written outside', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    const tool = createCreateProjectTool(racing(() => symlinkSync(outside, join(t.root, 'app', 'src'))));
    const result = await tool.execute({ name: 'app', type: 'node' }, t.ctx);
    expect(readdirSync(outside)).toEqual([]);
    expect(result).toMatchObject({
      ok: false,
      // O_NOFOLLOW|O_DIRECTORY on a link is ENOTDIR on Linux, hence the wording.
      error: expect.stringContaining('A parent of app/src/index.js is a file, not a folder'),
    });
  });

  it('a file name pre-empted by a link to an outside file: the outside file keeps its content', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'victim.json'), 'outside\n');
    const tool = createCreateProjectTool(
      racing(() => symlinkSync(join(outside, 'victim.json'), join(t.root, 'app', 'package.json'))),
    );
    const result = await tool.execute({ name: 'app', type: 'node' }, t.ctx);
    expect(readdirSync(outside)).toEqual(['victim.json']);
    expect(readFileSync(join(outside, 'victim.json'), 'utf8')).toBe('outside\n');
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining('app/package.json already exists (a file or a link was put there)'),
    });
  });

  it('an existing folder is refused, also one that appears between the check and the mkdir', async () => {
    t = makeToolContext();
    mkdirSync(join(t.root, 'taken'));
    const tool = createCreateProjectTool();
    expect(await tool.execute({ name: 'taken', type: 'python' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('already exists'),
    });
    expect(readdirSync(join(t.root, 'taken'))).toEqual([]);
    // Someone else's folder made after the fence's check: mkdir is atomic, so it is refused too.
    const late = createCreateProjectTool({
      ...defaultCreateProjectEffects,
      makeFolder: (root, path) => {
        mkdirSync(path);
        writeFileSync(join(path, 'theirs.txt'), 'theirs');
        return defaultCreateProjectEffects.makeFolder(root, path);
      },
    });
    expect(await late.execute({ name: 'late', type: 'node' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('already exists'),
    });
    expect(readdirSync(join(t.root, 'late'))).toEqual(['theirs.txt']);
    expect(t.preImages).toEqual([]);
  });

  it('a name that is a link to an outside folder, or a dangling link, is refused with a reason', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    symlinkSync(outside, join(t.root, 'out'));
    symlinkSync(join(outside, 'missing'), join(t.root, 'dangling'));
    const tool = createCreateProjectTool();
    for (const name of ['out', 'dangling']) {
      const result = await tool.execute({ name, type: 'java' }, t.ctx);
      expect(result, name).toMatchObject({
        ok: false,
        error: expect.stringMatching(/outside|symbolic link/),
      });
    }
    expect(readdirSync(outside)).toEqual([]);
  });
});
