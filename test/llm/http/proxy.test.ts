/**
 * The model transport and the proxy variables: which requests take the proxy (HTTPS_PROXY /
 * HTTP_PROXY, lower case first, NO_PROXY), plain http asked in absolute form, https tunnelled with
 * CONNECT and TLS checked end to end, credentials sent to the proxy, and failures that name it.
 * Every server is on 127.0.0.1.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../src/llm/http/node-fetch';
import { bypassed, proxyFor } from '../../../src/llm/http/proxy-env';
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai';
import { startLoopbackProxy, type LoopbackProxy } from '../../helpers/loopback-proxy';
import { makeTestCert } from '../../helpers/test-cert';

const U = (s: string) => new URL(s);

describe('proxyFor', () => {
  it.each([
    [{ HTTPS_PROXY: 'http://p:3128' }, 'https://api.example.com', 'p:3128'],
    [{ https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }, 'https://a.example', 'lower:1'],
    [{ HTTP_PROXY: 'proxy.corp:8080' }, 'http://a.example', 'proxy.corp:8080'],
    [{ HTTPS_PROXY: 'http://p:3128' }, 'http://a.example', undefined],
    [{ HTTP_PROXY: 'http://p:3128' }, 'https://a.example', undefined],
    [{ HTTPS_PROXY: 'http://p' }, 'https://a.example', 'p:80'],
    [{}, 'https://a.example', undefined],
  ])('%j for %s → %s', (env, target, shown) => {
    const route = proxyFor(U(target), env);
    expect(route && 'shown' in route ? route.shown : route).toBe(shown);
  });

  it('a proxy warden cannot speak to is a clear error, never a silent direct request', () => {
    expect(proxyFor(U('https://a.example'), { HTTPS_PROXY: 'socks5://p:1080' })).toEqual({
      error: expect.stringContaining('HTTPS_PROXY names a socks5:// proxy'),
    });
    expect(proxyFor(U('https://a.example'), { HTTPS_PROXY: 'http://' })).toHaveProperty('error');
  });

  it.each([
    ['*', 'https://anything.example', true],
    ['example.com', 'https://api.example.com', true],
    ['.example.com', 'https://example.com', true],
    ['*.example.com', 'https://a.b.example.com', true],
    ['example.com', 'https://notexample.com', false],
    ['localhost, 127.0.0.1', 'http://127.0.0.1:8080', true],
    ['127.0.0.1:9000', 'http://127.0.0.1:8080', false],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080', true],
    ['10.0.0.0/8', 'http://10.2.3.4', true],
    ['10.0.0.0/8', 'http://11.2.3.4', false],
    ['[::1]', 'http://[::1]:8080', true],
    ['api.example.com:443', 'https://api.example.com', true],
  ])('NO_PROXY=%s, %s → direct: %s', (list, target, direct) => {
    expect(bypassed(U(target), list)).toBe(direct);
  });

  it('no_proxy (lower case) counts too', () => {
    expect(
      proxyFor(U('https://a.internal'), { HTTPS_PROXY: 'http://p:1', no_proxy: 'internal' }),
    ).toBeUndefined();
  });
});

describe('requests through a loopback proxy', () => {
  let proxy: LoopbackProxy | undefined;
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await proxy?.close();
    await fake?.close();
    proxy = undefined;
    fake = undefined;
  });

  const models = async (fetch: ReturnType<typeof createNodeFetch>, base: string) => {
    const res = await fetch(`${base}/models`);
    return { status: res.status, body: await res.text() };
  };

  it('HTTP_PROXY: an http:// endpoint is asked of the proxy in absolute form, with its credentials', async () => {
    fake = await startFakeOpenAI([], { models: ['m1'] });
    proxy = await startLoopbackProxy({ auth: `Basic ${Buffer.from('me:s3 cret').toString('base64')}` });
    const proxied = new URL(proxy.url);
    proxied.username = 'me';
    proxied.password = 's3 cret';
    const fetch = createNodeFetch({ HTTP_PROXY: proxied.href });
    expect(await models(fetch, fake.url)).toMatchObject({ status: 200, body: expect.stringContaining('m1') });
    expect(proxy.forwarded).toEqual([`${fake.url}/models`]);
    expect(proxy.connects).toEqual([]);
  });

  it('NO_PROXY=127.0.0.1 goes direct: the proxy sees nothing', async () => {
    fake = await startFakeOpenAI([], { models: ['m1'] });
    proxy = await startLoopbackProxy();
    const fetch = createNodeFetch({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect((await models(fetch, fake.url)).status).toBe(200);
    expect(proxy.forwarded).toEqual([]);
    expect(proxy.connects).toEqual([]);
  });

  it('a proxy that is not there fails naming it and the variable, not a bare ECONNREFUSED', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const fetch = createNodeFetch({ HTTPS_PROXY: `http://127.0.0.1:${port}` });
    await expect(fetch('https://127.0.0.1:1/v1/models')).rejects.toThrow(
      `the proxy 127.0.0.1:${port} (from HTTPS_PROXY) cannot be reached: ECONNREFUSED`,
    );
    const plain = createNodeFetch({ http_proxy: `http://127.0.0.1:${port}` });
    await expect(plain('http://127.0.0.1:1/v1/models')).rejects.toThrow(
      '(from http_proxy) failed the request: ECONNREFUSED',
    );
  });

  it('HTTPS_PROXY: a CONNECT the proxy refuses is said', async () => {
    proxy = await startLoopbackProxy({ refuse: true });
    const fetch = createNodeFetch({ HTTPS_PROXY: proxy.url });
    await expect(fetch('https://127.0.0.1:9/v1/models')).rejects.toThrow(
      /refused to open a tunnel to 127\.0\.0\.1:9: 403/,
    );
    expect(proxy.connects).toEqual(['127.0.0.1:9']);
  });

  const cert = makeTestCert();
  it.skipIf(!cert)(
    'HTTPS_PROXY: TLS runs inside the tunnel to the endpoint, its certificate checked (self-signed: refused)',
    async () => {
      fake = await startFakeOpenAI([], { tls: cert as { key: string; cert: string } });
      proxy = await startLoopbackProxy();
      const fetch = createNodeFetch({ HTTPS_PROXY: proxy.url });
      await expect(fetch(`${fake.url}/models`)).rejects.toMatchObject({
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
      expect(proxy.connects).toEqual([new URL(fake.url).host]);
    },
  );
});

describe('the start banner names the proxy', () => {
  it('host, then the proxy without its credentials and the variable; a bad variable is said', async () => {
    const { endpointLine } = await import('../../../src/llm/endpoint-host');
    expect(
      endpointLine('https://api.example.com/v1', { HTTPS_PROXY: 'http://me:secret@10.0.0.1:3128' }),
    ).toBe('api.example.com via proxy 10.0.0.1:3128 (HTTPS_PROXY)');
    expect(endpointLine(undefined, {})).toBe('api.openai.com');
    expect(
      endpointLine('http://127.0.0.1:8080/v1', { HTTP_PROXY: 'http://p:1', NO_PROXY: '127.0.0.1' }),
    ).toBe('127.0.0.1:8080');
    expect(endpointLine('https://a.example/v1', { HTTPS_PROXY: 'socks5://p:1' })).toContain(
      'names a socks5:// proxy',
    );
  });
});
