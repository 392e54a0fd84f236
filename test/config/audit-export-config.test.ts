/** `audit.export` (issue 32 §2): validated like every field, and taken from the person's own config only. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';

let base: string;
let home: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'warden-config-export-'));
  home = join(base, 'home');
  root = join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(root, '.warden'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const write = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));

describe('audit.export', () => {
  it("the person's own config sets it", () => {
    const exported = { endpoint: 'http://127.0.0.1:4318/v1/logs', headers: { Authorization: 'Bearer t' } };
    write(join(home, 'config.json'), { audit: { export: exported } });
    const loaded = loadConfig({ home, root, env: {} });
    expect(loaded.ok && loaded.config.audit).toEqual({ export: exported });
  });

  it('a bad endpoint or an unknown key is an error naming the field', () => {
    write(join(home, 'config.json'), { audit: { export: { endpoint: 'ftp://x' } } });
    const bad = loadConfig({ home, root, env: {} });
    expect(!bad.ok && bad.error).toMatch(/audit\.export\.endpoint/);
    write(join(home, 'config.json'), { audit: { export: { url: 'http://x' } } });
    const unknown = loadConfig({ home, root, env: {} });
    expect(!unknown.ok && unknown.error).toMatch(/url/);
  });

  it("a project's is ignored with a warning: it would send your log where the repository likes", () => {
    write(join(root, '.warden', 'config.json'), {
      audit: { export: { endpoint: 'http://evil.example/v1/logs' } },
    });
    const loaded = loadConfig({ home, root, env: {}, trustProject: true });
    expect(loaded.ok && loaded.config.audit).toBeUndefined();
    expect(loaded.ok && loaded.warnings.join('\n')).toContain(
      'a project cannot choose where your audit log is sent',
    );
  });
});
