/**
 * Red team, second pass: every spelling of a private, loopback, link-local or metadata address that
 * a model can hand web_fetch, as a URL literal or as a resolver's answer. The resolver is injected
 * and records what it was asked, so a literal refused on sight provably caused no lookup at all.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hardGuardDenial } from '../../src/policy/guards/hard-guards';
import { checkUrl } from '../../src/policy/guards/ssrf-guard';
import type { CallFacts } from '../../src/policy/facts';
import { createWebFetchTool } from '../../src/tools/web/web-fetch';
import { ctx, fetchTool, serve, table } from './web2-helpers';

/** URL → the address the refusal must name (as the guard normalises it). */
const LITERALS: [string, RegExp][] = [
  ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
  ['http://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f.1/', /127\.0\.0\.1 is a loopback/],
  ['http://127.1/', /127\.0\.0\.1 is a loopback/],
  ['http://0x00007f.0x000001/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f%2e1/', /127\.0\.0\.1 is a loopback/],
  ['http://127。0。0。1/', /127\.0\.0\.1 is a loopback/],
  ['http://[::1]/', /::1 is a loopback/],
  ['http://[::ffff:127.0.0.1]/', /embedding 127\.0\.0\.1, a loopback/],
  ['http://[::ffff:7f00:1]/', /embedding 127\.0\.0\.1, a loopback/],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', /embedding 127\.0\.0\.1, a loopback/],
  ['http://[::ffff:0:7f00:1]/', /embedding 127\.0\.0\.1, a loopback/],
  ['http://[64:ff9b::7f00:1]/', /\(rfc6052\) embedding 127\.0\.0\.1, a loopback/],
  ['http://[64:ff9b::10.0.0.1]/', /embedding 10\.0\.0\.1, a private-network/],
  ['http://[64:ff9b:1::7f00:1]/', /embedded IPv4 address cannot be located/],
  ['http://[2002:7f00:1::]/', /\(6to4\) embedding 127\.0\.0\.1, a loopback/],
  ['http://[2002:a9fe:a9fe::1]/', /embedding 169\.254\.169\.254, a link-local/],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /\(teredo\) embedding 127\.0\.0\.1/],
  ['http://[::7f00:1]/', /reserved IPv6 address \(::\/8\)/],
  ['http://[fc00::1]/', /unique-local/],
  ['http://[fd00:ec2::254]/', /unique-local/],
  ['http://[fe80::1]/', /link-local/],
  ['http://[fec0::1]/', /site-local/],
  ['http://[ff02::1]/', /multicast/],
  ['http://0.0.0.0/', /0\.0\.0\.0 is a unspecified/],
  ['http://0/', /0\.0\.0\.0 is a unspecified/],
  ['https://[::]/', /:: is a unspecified/],
  ['http://169.254.169.254/latest/meta-data/', /link-local/],
  ['http://[::ffff:a9fe:a9fe]/', /embedding 169\.254\.169\.254, a link-local/],
  ['http://100.100.100.200/', /carrier-grade NAT/],
  ['http://192.168.0.1./', /private-network/],
  ['http://localhost./', /localhost always means this machine/],
  ['http://LOCALHOST/', /localhost always means this machine/],
  ['http://LocalHost../', /localhost always means this machine/],
  ['http://%6c%6f%63%61%6c%68%6f%73%74/', /localhost always means this machine/],
  ['http://ⓛocalhost/', /localhost always means this machine/],
  ['http://admin.LOCALHOST./', /admin\.localhost always means this machine/],
  // Userinfo, fragment and backslash tricks: the host is what WHATWG parsing says, nothing else.
  ['http://evil@127.0.0.1/', /user name or password/],
  ['http://public.test:80@127.0.0.1/', /user name or password/],
  ['http://127.0.0.1#@evil.test/', /127\.0\.0\.1 is a loopback/],
  ['http://127.0.0.1\\@evil.test/', /127\.0\.0\.1 is a loopback/],
  ['http://127.0.0.1?@evil.test/', /127\.0\.0\.1 is a loopback/],
  ['http:\\\\127.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['http:127.0.0.1/', /127\.0\.0\.1 is a loopback/],
  [' http://\t127.0.0.1\n/', /127\.0\.0\.1 is a loopback/],
];

describe('literal addresses: refused by the tool before any name is resolved, with the address named', () => {
  it.each(LITERALS)('%s', async (url, reason) => {
    const lookup = table({});
    const result = await fetchTool(lookup).execute({ url }, ctx());
    expect(result).toMatchObject({ ok: false, data: { blocked: true } });
    if (!result.ok) expect(result.error).toMatch(reason);
    expect(lookup.asked).toEqual([]);
  });

  it.each(LITERALS)('the gate refuses %s at step 1 (hard guard), where no person can approve it', (url) => {
    const facts = { paths: [], url } as unknown as CallFacts;
    expect(hardGuardDenial(facts)).toMatchObject({ ruleId: expect.stringMatching(/^ssrf-(url|address)$/) });
  });

  it.each([
    'http://[fe80::1%25lo]/',
    'http://[fe80::1%lo]/',
    'http://[::ffff:7f00:1%25eth0]/',
    'http://[::ffff:127.0.0.1]./',
  ])('an IPv6 zone or a dotted bracket is not a URL at all: %s', (url) => {
    expect(checkUrl(url)).toMatchObject({ ok: false, ruleId: 'ssrf-url' });
  });

  it('http://public.test#@127.0.0.1 reaches public.test, the name the policy judged, and asks only for it', async () => {
    const s = await serve();
    const lookup = table({ 'public.test': ['127.0.0.1'] });
    const result = await fetchTool(lookup).execute(
      { url: `http://public.test:${s.port}#@127.0.0.1/` },
      ctx(),
    );
    expect(result.ok).toBe(true);
    expect(lookup.asked).toEqual(['public.test']);
    expect(s.hits.filter((h) => h.method === 'GET').map((h) => h.host)).toEqual([`public.test:${s.port}`]);
  });
});

describe('names that resolve to this machine or a neighbour: refused after the lookup, naming both', () => {
  it.each([
    ['::1', /loopback/],
    ['::ffff:127.0.0.1', /embedding 127\.0\.0\.1/],
    ['::ffff:7f00:1', /embedding 127\.0\.0\.1/],
    ['64:ff9b::7f00:1', /embedding 127\.0\.0\.1/],
    ['2002:7f00:1::', /embedding 127\.0\.0\.1/],
    ['fe80::1%lo', /link-local/],
    ['fc00::1', /unique-local/],
    ['0.0.0.0', /unspecified/],
    ['169.254.169.254', /link-local/],
    ['fd00:ec2::254', /unique-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
  ])('a name that resolves to %s', async (address, reason) => {
    const s = await serve();
    // Not public.test: the test-only predicate lets nothing through for this name.
    const lookup = table({ 'inside.test': [address] });
    const result = await fetchTool(lookup).execute({ url: `http://inside.test:${s.port}/` }, ctx());
    expect(result).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
    if (!result.ok) expect(result.error).toMatch(new RegExp(`inside\\.test resolves to .*${reason.source}`));
    expect(s.hits).toEqual([]);
  });

  it('a name that resolves to a public address and a private one is refused whichever comes first', async () => {
    const s = await serve();
    for (const order of [
      ['127.0.0.1', '10.1.2.3'],
      ['10.1.2.3', '127.0.0.1'],
    ]) {
      const result = await fetchTool(table({ 'public.test': order })).execute(
        { url: `http://public.test:${s.port}/` },
        ctx(),
      );
      expect(result, order.join()).toMatchObject({ ok: false, data: { ruleId: 'ssrf-address' } });
      if (!result.ok) expect(result.error).toMatch(/10\.1\.2\.3 is a private-network address/);
    }
    expect(s.hits).toEqual([]);
  });

  it('the name is resolved once per hop and the socket goes to that answer (a second, private answer is never asked for)', async () => {
    let asked = 0;
    const rebinding = async () => {
      asked += 1;
      return [{ address: asked === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 as const }];
    };
    const s = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('first'));
    const result = await fetchTool(rebinding).execute({ url: `http://public.test:${s.port}/` }, ctx());
    expect(result.ok && result.output.endsWith('first')).toBe(true);
    expect(asked).toBe(1);
  });

  // Names this machine's own hosts file maps to loopback: the real resolver is used (files come
  // before DNS), so this is what happens to them in a session.
  const hostsNames = loopbackNamesFromHosts().filter((n) => n !== 'localhost' && !n.endsWith('.localhost'));
  it.skipIf(hostsNames.length === 0)(
    'names /etc/hosts maps to loopback (%s), through the real resolver',
    async () => {
      const s = await serve();
      const tool = createWebFetchTool({ rateLimit: { max: 1000, windowMs: 60_000 } });
      for (const name of hostsNames) {
        const result = await tool.execute({ url: `http://${name}:${s.port}/` }, ctx());
        expect(result, name).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
        if (!result.ok) expect(result.error).toMatch(/resolves to .* is a loopback address/);
      }
      expect(s.hits).toEqual([]);
    },
  );
});

/** Host names /etc/hosts maps to a loopback address (127.0.0.0/8 or ::1); none when unreadable. */
function loopbackNamesFromHosts(): string[] {
  let text: string;
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const [address, ...rest] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || !(/^127\./.test(address) || address === '::1')) continue;
    for (const name of rest) if (/^[a-z0-9.-]+$/i.test(name)) names.add(name.toLowerCase());
  }
  return [...names].slice(0, 8);
}
