import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The UI reads untrusted text only through `safeClient` (App wraps the client it is given). A
 * component that imported a core module for data (a reader, the session, a tool) would get text
 * that never passed the sanitiser; so from src/ the components take only types, and src/text.
 */
describe('where the UI gets its text', () => {
  it('components import from src/ only types, and the text helpers', () => {
    const offending: string[] = [];
    for (const file of files(join(repo, 'components'))) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'((?:\.\.\/)+src\/[^']+)';/gm)) {
        const typeOnly = match[1] !== undefined || /^import\s+\{\s*(?:type\s+\w+\s*,?\s*)+\}/.test(match[0]);
        if (!typeOnly && !/\/src\/text\//.test(match[2] ?? ''))
          offending.push(`${relative(repo, file)}: ${match[0]}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('App wraps the client it is given in safeClient before anything reads it', () => {
    const app = readFileSync(join(repo, 'components', 'App.tsx'), 'utf8');
    const wrap = app.indexOf('safeClient(coreClient)');
    expect(wrap).toBeGreaterThan(0);
    expect(app.indexOf('useCoreState(client)')).toBeGreaterThan(wrap);
    // The raw client is named three times: the parameter, the wrap, the memo's dependency.
    expect(app.match(/\bcoreClient\b/g)).toHaveLength(3);
  });
});
