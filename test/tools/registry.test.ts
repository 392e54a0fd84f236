import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCoreTools, createTools } from '../../src/tools/index';

const repo = join(__dirname, '..', '..');
const reverter = {
  plan: async () => ({ turns: 0, changes: [] }),
  revert: async () => ({ restored: [], removed: [], skipped: [], turns: 0 }),
};
const provider = { name: 'stub', search: async () => [] };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the tool registry (src/tools/index.ts) is the one list of tools', () => {
  it('builds every tool once, in the order the model sees them', () => {
    const names = createTools({
      checkpoints: reverter,
      webSearch: { kind: 'provider', provider },
    }).map((t) => t.name);
    expect(names).toEqual([
      'read_file',
      'list_dir',
      'glob_files',
      'grep_code',
      'edit_file',
      'write_file',
      'execute_command',
      'create_project',
      'web_fetch',
      'web_search',
      'spawn_agents',
      'propose_plan',
      'update_plan',
      'ask_user',
      'escalate',
      'revert_turn',
    ]);
  });

  it('leaves out what a session has no setup for, and builds a group alone', () => {
    expect(createTools({}).map((t) => t.name)).not.toContain('web_search');
    expect(createTools({}).map((t) => t.name)).not.toContain('revert_turn');
    expect(createTools({}, ['web']).map((t) => t.name)).toEqual(['web_fetch']);
    expect(createCoreTools().map((t) => t.name)).toEqual(createTools({}, ['core']).map((t) => t.name));
  });

  it('no module of src/ but the registry builds a tool (a tool file defines its own factory)', () => {
    const calls = sources(join(repo, 'src')).filter((file) =>
      /\bcreate[A-Z]\w*Tool\(/.test(readFileSync(file, 'utf8').replace(/function create\w*Tool\(/g, '')),
    );
    // web-search.ts: its helpers pick the search provider for the registry's web_search line.
    expect(calls.map((f) => relative(repo, f)).sort()).toEqual([
      'src/tools/index.ts',
      'src/tools/web/web-search.ts',
    ]);
  });
});
