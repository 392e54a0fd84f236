import { describe, expect, it } from 'vitest';
import { checkAddress, checkUrl } from '../../../src/policy/guards/ssrf-guard';

describe('checkUrl', () => {
  const refused: [string, string][] = [
    ['http://127.0.0.1/', 'ssrf-address'],
    ['http://localhost:8080/', 'ssrf-address'],
    ['http://LOCALHOST./', 'ssrf-address'],
    ['http://api.localhost/', 'ssrf-address'],
    ['http://[::1]/', 'ssrf-address'],
    ['http://0.0.0.0/', 'ssrf-address'],
    ['http://0/', 'ssrf-address'],
    ['http://2130706433/', 'ssrf-address'],
    ['http://0x7f.1/', 'ssrf-address'],
    ['http://0x7f000001/', 'ssrf-address'],
    ['http://017700000001/', 'ssrf-address'],
    ['http://0177.0.0.1/', 'ssrf-address'],
    ['http://127.1/', 'ssrf-address'],
    ['http://169.254.169.254/latest/meta-data/', 'ssrf-address'],
    ['http://10.0.0.1/', 'ssrf-address'],
    ['http://172.16.0.1/', 'ssrf-address'],
    ['http://172.31.255.255/', 'ssrf-address'],
    ['http://192.168.1.1/', 'ssrf-address'],
    ['http://100.64.0.1/', 'ssrf-address'],
    ['http://255.255.255.255/', 'ssrf-address'],
    ['http://240.0.0.1/', 'ssrf-address'],
    ['http://224.0.0.1/', 'ssrf-address'],
    ['http://[::ffff:127.0.0.1]/', 'ssrf-address'],
    ['http://[::ffff:7f00:1]/', 'ssrf-address'],
    ['http://[::ffff:a9fe:a9fe]/', 'ssrf-address'],
    ['http://[::127.0.0.1]/', 'ssrf-address'],
    ['http://[::]/', 'ssrf-address'],
    ['http://[fe80::1]/', 'ssrf-address'],
    ['http://[fc00::1]/', 'ssrf-address'],
    ['http://[fd12:3456::1]/', 'ssrf-address'],
    ['http://[fec0::1]/', 'ssrf-address'],
    ['http://[ff02::1]/', 'ssrf-address'],
    ['http://[64:ff9b::7f00:1]/', 'ssrf-address'],
    ['http://[64:ff9b:1::a00:1]/', 'ssrf-address'],
    ['http://[2002:7f00:1::]/', 'ssrf-address'],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'ssrf-address'],
    ['http://[2001:db8::1]/', 'ssrf-address'],
    ['file:///etc/passwd', 'ssrf-scheme'],
    ['gopher://127.0.0.1:70/_GET', 'ssrf-scheme'],
    ['ftp://example.com/file', 'ssrf-scheme'],
    ['data:text/plain,hello', 'ssrf-scheme'],
    ['javascript:alert(1)', 'ssrf-scheme'],
    ['http://user:pw@example.com/', 'ssrf-url'],
    ['http://example.com@127.0.0.1/', 'ssrf-url'],
    ['not a url', 'ssrf-url'],
    ['/relative/path', 'ssrf-url'],
  ];
  it.each(refused)('refuses %s (%s)', (url, ruleId) => {
    const verdict = checkUrl(url);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.ruleId).toBe(ruleId);
      expect(verdict.reason).toMatch(/\S/);
    }
  });

  it.each([
    'https://example.com/',
    'http://93.184.215.14/',
    'https://[2606:4700::1111]/',
    'https://[64:ff9b::5db8:d70e]/',
    'https://Docs.Python.org./3/',
  ])('allows %s', (url) => {
    expect(checkUrl(url).ok).toBe(true);
  });
});

describe('checkAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '2130706433',
    '0x7f.1',
    '017700000001',
    '0177.0.0.1',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    'fe80::1%eth0',
    '169.254.169.254',
    '0.0.0.0',
    '',
    'not-an-ip',
  ])('refuses %j', (address) => {
    const verdict = checkAddress(address);
    expect(verdict).toMatchObject({ ok: false, ruleId: 'ssrf-address' });
  });

  it('allows public unicast and normalises it', () => {
    expect(checkAddress('8.8.8.8')).toEqual({ ok: true, address: '8.8.8.8', family: 4 });
    expect(checkAddress('2606:4700:0:0::1111')).toEqual({ ok: true, address: '2606:4700::1111', family: 6 });
  });

  it('explains the refusal in one sentence', () => {
    const verdict = checkAddress('10.0.0.1');
    expect(verdict.ok || verdict.reason).toBe(
      '10.0.0.1 is a private-network address, which web tools may not reach.',
    );
  });
});
