/**
 * execute_command with approved hosts, under the real bubblewrap sandbox: the relay hands warden the
 * sandbox's listener and leaves nothing behind (no channel, no variable), the command reaches the
 * host's services only through the proxy and only those named, and without hosts it has none.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathFence } from '../../../../src/policy/guards/path-guard';
import { networkEntries } from '../../../../src/policy/network-hosts';
import {
  createExecuteCommandTool,
  defaultExecuteCommandEffects,
} from '../../../../src/tools/exec/execute-command';
import { relayNode, takeListener } from '../../../../src/tools/exec/network/sandbox-relay';
import { findOnPath } from '../../../../src/tools/exec/sandbox';
import type { NetworkConnection, ToolContext } from '../../../../src/tools/types';
import { allowAllCommands } from '../../../helpers/tool-context';

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;

describe.skipIf(!bwrap)('a sandboxed run with approved hosts', () => {
  let root: string;
  let service: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-net-run-')));
    service = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('host service\n');
    });
    service.listen(0, '127.0.0.1');
    await once(service, 'listening');
    port = (service.address() as AddressInfo).port;
  });
  afterAll(async () => {
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300 });
  async function run(command: string, hosts?: string[]) {
    const lines: NetworkConnection[] = [];
    const ctx: ToolContext = {
      root,
      fence: new PathFence(root),
      commands: allowAllCommands,
      sandbox: { kind: 'bwrap', path: bwrap as string },
      signal: new AbortController().signal,
      ...(hosts
        ? {
            network: {
              entries: networkEntries(hosts),
              audit: (c: NetworkConnection) => {
                lines.push(c);
                return { ok: true as const };
              },
            },
          }
        : {}),
    };
    const result = await tool.execute({ command, timeout_ms: 20_000 }, ctx);
    return {
      text: result.ok ? result.output : result.error,
      lines,
      data: result.data as Record<string, unknown>,
    };
  }

  // node, not curl: it is what warden runs on, so it is there wherever this test runs.
  const get = (url: string, via: 'proxy' | 'direct') =>
    via === 'proxy'
      ? `node -e "const u=new URL(process.env.HTTP_PROXY);require('http').get({host:u.hostname,port:u.port,path:'${url}'},r=>{let b='';r.on('data',d=>b+=d);r.on('end',()=>console.log(r.statusCode,b.trim()))}).on('error',e=>console.log('error',e.code))"`
      : `node -e "require('http').get('${url}',r=>console.log(r.statusCode)).on('error',e=>console.log('error',e.code))"`;

  it('leaves the command no channel to warden: fd 4 closed, the channel variables unset', async () => {
    const r = await run(
      'test -e /proc/self/fd/4 && echo fd4-open; env | grep -c NODE_CHANNEL; echo "proxy=$HTTP_PROXY"',
      [`127.0.0.1:${port}`],
    );
    expect(r.text).not.toContain('fd4-open');
    expect(r.text).toMatch(/^0\n/);
    expect(r.text).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
  });

  it('reaches the named service through the proxy, not directly, and no other port of this machine', async () => {
    const r = await run(
      `${get(`http://127.0.0.1:${port}/named`, 'proxy')}; ${get(`http://127.0.0.1:${port}/direct`, 'direct')}; ${get(`http://127.0.0.1:${port + 1}/next`, 'proxy')}`,
      [`127.0.0.1:${port}`],
    );
    expect(r.text).toContain('200 host service');
    // Directly, 127.0.0.1 is the sandbox's own loopback: nothing listens there.
    expect(r.text).toContain('error ECONNREFUSED');
    expect(r.text).toContain('403 warden:');
    expect(hits).toEqual(['/named']);
    expect(r.lines.map((l) => l.decision)).toEqual(['allow', 'deny']);
    expect(r.data.network).toEqual({ hosts: [`127.0.0.1:${port}`], connections: 1, refused: 1 });
  });

  it('without approved hosts: no proxy variable, no way out', async () => {
    hits.length = 0;
    const r = await run(`echo "proxy=[$HTTP_PROXY]"; ${get(`http://127.0.0.1:${port}/x`, 'direct')}`);
    expect(r.text).toContain('proxy=[]');
    expect(r.text).toContain('error ECONNREFUSED');
    expect(hits).toEqual([]);
    expect(r.data.network).toBeUndefined();
  });

  it("the command's own loopback servers stay direct (NO_PROXY) while hosts are approved", async () => {
    const r = await run(
      `node -e "const h=require('http');const s=h.createServer((q,a)=>a.end('own')).listen(0,'127.0.0.1',()=>h.get('http://127.0.0.1:'+s.address().port,r=>{r.on('data',d=>{console.log(String(d));s.close()})}))"; echo "no_proxy=$NO_PROXY"`,
      [`127.0.0.1:${port}`],
    );
    expect(r.text).toContain('own');
    expect(r.text).toContain('no_proxy=localhost,127.0.0.1,::1');
  });
});

describe('the relay', () => {
  const relay = (code: string) =>
    spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] });

  it('hands over its listener, is answered, and exits; warden then accepts on it', async () => {
    const child = relay(
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.on('message',m=>{if(m.kind==='warden-proxy-ready'){process.stdout.write(String(s.address().port),()=>process.exit(0))}});process.send({kind:'warden-proxy-listening'},s)})",
    );
    const served: NetServer[] = [];
    takeListener(child, (l) => served.push(l));
    let out = '';
    child.stdout?.on('data', (d) => (out += String(d)));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(served).toHaveLength(1);
    const listener = served[0] as NetServer;
    const accepted = once(listener, 'connection');
    const client = connect(Number(out), '127.0.0.1');
    const [socket] = (await accepted) as [Socket];
    socket.destroy();
    client.destroy();
    listener.close();
  });

  it('takes nothing else: another message closes the channel, and nothing is served', async () => {
    const child = relay("process.send({kind:'something-else'});setInterval(()=>{},1000)");
    const served: unknown[] = [];
    takeListener(child, (l) => served.push(l));
    await once(child, 'disconnect');
    expect(served).toEqual([]);
    child.kill();
  });
});

describe('the relay’s node', () => {
  const view = (visible: string[], home?: string) => ({ args: [], visible, ...(home ? { home } : {}) });
  it('is warden’s own, bound only where the view does not show it (the private /tmp and home show nothing)', () => {
    const real = realpathSync(process.execPath);
    const folder = real.slice(0, real.lastIndexOf('/'));
    expect(relayNode(view([folder]))).toEqual({ path: real, mounts: [] });
    expect(relayNode(view(['/dev', '/proc', '/tmp', folder], folder))).toEqual({
      path: real,
      mounts: ['--ro-bind', real, real],
    });
  });
});
