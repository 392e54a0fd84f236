import { describe, expect, it } from 'vitest';
import {
  connectTarget,
  coveredEntries,
  entryWarning,
  matchingEntry,
  type NetworkEntry,
  networkEntries,
  parseNetworkEntry,
  requestHost,
} from '../../src/policy/network-hosts';

const entry = (text: string): NetworkEntry => {
  const v = parseNetworkEntry(text);
  if (!v.ok) throw new Error(v.error);
  return v.entry;
};

describe('a network entry', () => {
  it.each([
    ['registry.npmjs.org', 'registry.npmjs.org', 'name'],
    ['Registry.NPMJS.org.', 'registry.npmjs.org', 'name'],
    ['*.github.com', '*.github.com', 'wildcard'],
    ['example.com:8443', 'example.com:8443', 'name'],
    ['127.0.0.1:4873', '127.0.0.1:4873', 'address'],
    ['0x7f.1', '127.0.0.1', 'address'],
    ['1.2.3', '1.2.0.3', 'address'],
    ['[::1]:8080', '[::1]:8080', 'address'],
    ['::ffff:10.0.0.1', '10.0.0.1', 'address'],
    ['bücher.example', 'xn--bcher-kva.example', 'name'],
    ['_acme.example.org', '_acme.example.org', 'name'],
  ])('%s reads as %s (%s)', (input, text, kind) => {
    expect(entry(input)).toMatchObject({ text, kind });
  });

  it.each([
    ['', 'expected a host name'],
    ['https://registry.npmjs.org/', 'not a URL'],
    ['registry.npmjs.org/path', 'not a URL'],
    ['user@host.com', 'not a URL'],
    ['*', 'expected a host name'],
    ['*.com', 'top-level domain'],
    ['localhost', 'localhost always means this machine'],
    ['api.localhost:80', 'localhost always means this machine'],
    ['example.com:0', 'port from 1 to 65535'],
    ['example.com:99999', 'port from 1 to 65535'],
    ['example.com:http', 'port from 1 to 65535'],
    ['0.0.0.0', 'no host'],
    ['[::]:80', 'no host'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['-bad-.com', 'expected a host name'],
    ['a..b', 'expected a host name'],
    ['*.127.0.0.1', 'expected a host name'],
    ['[::1', 'needs its ]'],
  ])('%j is refused: %s', (input, why) => {
    const v = parseNetworkEntry(input);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toContain(why);
  });

  it('warns about this machine, a private network and the metadata service; not about a public address or a name', () => {
    expect(entryWarning(entry('127.0.0.1:5432'))).toContain('this machine');
    expect(entryWarning(entry('[::1]:80'))).toContain('this machine');
    expect(entryWarning(entry('10.1.2.3'))).toContain('private-network');
    expect(entryWarning(entry('169.254.169.254'))).toContain('metadata');
    expect(entryWarning(entry('93.184.216.34'))).toBeUndefined();
    expect(entryWarning(entry('db.internal'))).toBeUndefined();
  });
});

describe('which entry covers a host the command asks for', () => {
  const entries = networkEntries([
    'registry.npmjs.org',
    '*.github.com',
    'example.com:8443',
    '127.0.0.1:4873',
  ]);
  const match = (host: string, port: number) => {
    const h = requestHost(host);
    return h ? matchingEntry(entries, h, port)?.text : undefined;
  };

  it.each([
    ['registry.npmjs.org', 443, 'registry.npmjs.org'],
    ['REGISTRY.npmjs.org.', 80, 'registry.npmjs.org'],
    ['github.com', 443, '*.github.com'],
    ['api.github.com', 443, '*.github.com'],
    ['codeload.eu.github.com', 80, '*.github.com'],
    ['example.com', 8443, 'example.com:8443'],
    ['127.0.0.1', 4873, '127.0.0.1:4873'],
    ['0x7f000001', 4873, '127.0.0.1:4873'],
    ['::ffff:127.0.0.1', 4873, '127.0.0.1:4873'],
  ])('%s:%i → %s', (host, port, covered) => {
    expect(match(host, port)).toBe(covered);
  });

  it.each([
    ['registry.npmjs.org', 22, 'a port the entry does not name (80 and 443 only)'],
    ['evil-registry.npmjs.org', 443, 'a longer name'],
    ['registry.npmjs.org.evil.com', 443, 'a name that only starts like it'],
    ['notgithub.com', 443, 'a suffix that is not a label'],
    ['example.com', 443, 'another port than the one named'],
    ['127.0.0.1', 4874, 'the next port'],
    ['127.0.0.1', 443, 'the address on a default port'],
    ['127.0.0.2', 4873, 'another loopback address'],
    ['localhost', 4873, 'a name for the address'],
    ['140.82.112.3', 443, 'an address of a listed name'],
  ])('%s:%i is not covered (%s)', (host, port) => {
    expect(match(host, port)).toBeUndefined();
  });

  it('reads CONNECT targets: host and port, v6 in brackets; nothing without a port or with a bad one', () => {
    expect(connectTarget('registry.npmjs.org:443')).toEqual({
      host: { kind: 'name', host: 'registry.npmjs.org' },
      port: 443,
    });
    expect(connectTarget('[::1]:8080')).toEqual({ host: { kind: 'address', host: '::1' }, port: 8080 });
    for (const bad of ['registry.npmjs.org', 'host:0', 'host:65536', ':443', 'a b:443', 'host:44x'])
      expect(connectTarget(bad)).toBeUndefined();
  });
});

describe('which requested entries the person’s sandbox.network lists', () => {
  it('an entry is covered by itself, a wildcard over it, or an entry with its ports; nothing else', () => {
    const allowed = networkEntries(['*.npmjs.org', 'github.com', '127.0.0.1:4873']);
    const wanted = networkEntries([
      'registry.npmjs.org',
      'npmjs.org',
      'github.com',
      'github.com:22',
      'api.github.com',
      '127.0.0.1:4873',
      '127.0.0.1',
    ]);
    const { covered, unlisted } = coveredEntries(wanted, allowed);
    expect(covered.map((e) => e.text)).toEqual([
      'registry.npmjs.org',
      'npmjs.org',
      'github.com',
      '127.0.0.1:4873',
    ]);
    expect(unlisted.map((e) => e.text)).toEqual(['github.com:22', 'api.github.com', '127.0.0.1']);
  });

  it('a wildcard asked for is covered only by a wildcard at or above it', () => {
    const { unlisted } = coveredEntries(networkEntries(['*.github.com']), networkEntries(['github.com']));
    expect(unlisted).toHaveLength(1);
    const wide = coveredEntries(networkEntries(['*.api.github.com']), networkEntries(['*.github.com']));
    expect(wide.unlisted).toHaveLength(0);
  });

  it('entries are deduplicated by their normal form', () => {
    expect(networkEntries(['GitHub.com', 'github.com.', 'github.com']).map((e) => e.text)).toEqual([
      'github.com',
    ]);
  });
});
