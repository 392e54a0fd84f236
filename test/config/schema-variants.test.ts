import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/read-file';
import { ConfigFileSchema } from '../../src/config/schema';
import { knownKeysAt } from '../../src/config/schema-variants';

describe('the keys a config file may hold, read from the schema', () => {
  it.each([
    [[], ['model', 'sandbox', 'notify', 'mcpServers']],
    [['webSearch'], ['provider', 'url']],
    [['sandbox'], ['mode', 'readPaths']],
    [['notify'], ['method', 'command']],
    [
      ['mcpServers', 'github'],
      ['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'disabled'],
    ],
  ] as const)('at %j', (path, keys) => {
    expect(knownKeysAt(ConfigFileSchema, path)).toEqual(expect.arrayContaining([...keys]));
  });

  it('knows none where no object lives', () => {
    expect(knownKeysAt(ConfigFileSchema, ['model'])).toEqual([]);
    expect(knownKeysAt(ConfigFileSchema, ['nothing', 'here'])).toEqual([]);
  });

  it('hints a near key inside a field that picks its variant by shape', () => {
    const read = parseConfigText('/c.json', JSON.stringify({ sandbox: { mode: 'auto', readPath: [] } }));
    expect(read.kind === 'error' && read.error).toMatch(
      /sandbox\.readPath: unknown key \(did you mean "readPaths"\?\)/,
    );
    const notify = parseConfigText('/c.json', JSON.stringify({ notify: { methd: 'bell' } }));
    expect(notify.kind === 'error' && notify.error).toMatch(/did you mean "method"/);
  });
});
