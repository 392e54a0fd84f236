/**
 * Issue 33 §4 through the real binary and the real sandbox: a command reaches the hosts its card
 * named (or the person's own `sandbox.network` lists) through warden's proxy, and nothing else —
 * an unlisted host is refused with 403 and audited, a command that names none has no network at all,
 * and a repository's config cannot add hosts. The "registry" is a server on 127.0.0.1, named by its
 * address and port (a name would have to resolve to a public address); the sandboxed curl goes through
 * the proxy for it because the command clears NO_PROXY (127.0.0.1 inside the sandbox is the sandbox).
 */
import { once } from 'node:events';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLines } from '../helpers/audit-lines';
import { lastToolMessage, type RecordedRequest } from '../helpers/fake-openai';
import { fakeModel, headlessWarden, tempPlaces, useCleanup } from '../helpers/headless-run';
import { ptyLaunches } from '../helpers/pty-launch';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { makeTestCert } from '../helpers/test-cert';

const sandboxed =
  process.platform === 'linux' && findOnPath('bwrap') !== undefined && findOnPath('curl') !== undefined;
const later = useCleanup();
const { launch } = ptyLaunches();

let registry: Server;
let port: number;
let hits: string[];
/** A port nothing listens on, that no entry names: the proxy must refuse it before trying. */
let unlisted: number;

beforeEach(async () => {
  hits = [];
  registry = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end(`registry package ${req.url}\n`);
  });
  registry.listen(0, '127.0.0.1');
  await once(registry, 'listening');
  port = (registry.address() as AddressInfo).port;
  const spare = createServer().listen(0, '127.0.0.1');
  await once(spare, 'listening');
  unlisted = (spare.address() as AddressInfo).port;
  spare.close();
});
afterEach(async () => {
  registry.closeAllConnections();
  await new Promise((resolve) => registry.close(resolve));
});

/** curl through the proxy (NO_PROXY cleared), printing the body or the proxy's refusal and the status. */
const curl = (url: string, extra = '') =>
  `env -u NO_PROXY -u no_proxy curl -sS ${extra} -w ' status=%{http_code}\\n' ${url} 2>&1`;
const run = (command: string, network?: string[]) => ({
  toolCalls: [{ name: 'execute_command', args: { command, ...(network ? { network } : {}) } }],
});
/** What the model was told of its calls: each result's output (or reason), in order. */
const toolText = (requests: RecordedRequest[]) =>
  requests
    .map((r) => lastToolMessage(r)?.content)
    .filter((c): c is string => typeof c === 'string')
    .map((c) => {
      const envelope = JSON.parse(c) as { output?: string; reason?: string };
      return envelope.output ?? envelope.reason ?? '';
    })
    .join('\n');

/** The person's own config letting `hosts` through unasked, and a rule allowing every command. */
function homeAllowing(home: string, hosts: string[]) {
  writeFileSync(join(home, 'config.json'), JSON.stringify({ sandbox: { network: hosts } }));
  writeFileSync(
    join(home, 'policy.json'),
    JSON.stringify({ rules: [{ tool: 'execute_command', decision: 'allow' }] }),
  );
}

describe.skipIf(!sandboxed)('network for commands, through the real binary (headless)', () => {
  it('reaches the listed host through the proxy; an unlisted one is refused with 403; both are audit lines', async () => {
    const at = tempPlaces(later, 'net-listed');
    const host = `127.0.0.1:${port}`;
    homeAllowing(at.home, [host]);
    const command = `${curl(`http://${host}/pkg`)}; ${curl(`http://127.0.0.1:${unlisted}/other`)}; ${curl(`http://${host}/tunnel`, '-p')}`;
    const model = await fakeModel(later, [run(command, [host])]);
    const r = await headlessWarden(at, model, ['-p', 'install']);
    expect(r.code).toBe(0);
    const text = toolText(model.requests);
    expect(text).toContain('registry package /pkg\n status=200');
    expect(text).toMatch(
      new RegExp(
        `127\\.0\\.0\\.1:${unlisted} is not among the hosts this run may reach[^\\n]*\\n status=403`,
      ),
    );
    // -p: the same host through a CONNECT tunnel.
    expect(text).toContain('registry package /tunnel\n status=200');
    expect(text).toContain(`network only to ${host} through warden's proxy (2 connections, 1 refused)`);
    expect(hits).toEqual(['/pkg', '/tunnel']);
    const lines = auditLines(at.home).filter((l) => l.phase === 'connection');
    expect(lines.map((l) => [l.args.connection, l.decision, l.rule])).toEqual([
      [`GET http://${host}/pkg`, 'allow', 'network-approved'],
      [`GET http://127.0.0.1:${unlisted}/other`, 'deny', 'network-unlisted'],
      [`CONNECT ${host}`, 'allow', 'network-approved'],
    ]);
    const decision = auditLines(at.home).find((l) => l.phase === 'decision' && l.tool === 'execute_command');
    for (const line of lines) expect(line.argsHash).toBe(decision.argsHash);
  });

  it('a command that names no host has no network at all, and no proxy variables', async () => {
    const at = tempPlaces(later, 'net-none');
    homeAllowing(at.home, [`127.0.0.1:${port}`]);
    const command = `env | grep -ci _proxy; curl -sS --max-time 5 http://127.0.0.1:${port}/direct; echo curl=$?`;
    const model = await fakeModel(later, [run(command)]);
    const r = await headlessWarden(at, model, ['-p', 'try']);
    expect(r.code).toBe(0);
    const text = toolText(model.requests);
    expect(text).toMatch(/^0\n/);
    expect(text).toContain('curl=7');
    expect(text).toContain('sandboxed: no network');
    expect(hits).toEqual([]);
    expect(auditLines(at.home).filter((l) => l.phase === 'connection')).toEqual([]);
  });

  it('a host the person’s config does not list needs a person: headless, nothing runs', async () => {
    const at = tempPlaces(later, 'net-unlisted');
    homeAllowing(at.home, []);
    const model = await fakeModel(later, [run(curl(`http://127.0.0.1:${port}/pkg`), [`127.0.0.1:${port}`])]);
    await headlessWarden(at, model, ['-p', 'install']);
    expect(toolText(model.requests)).toContain('no_approver');
    expect(hits).toEqual([]);
  });

  it('a repository’s own .warden/config.json cannot add hosts', async () => {
    const at = tempPlaces(later, 'net-repo');
    homeAllowing(at.home, []);
    mkdirSync(join(at.root, '.warden'));
    writeFileSync(
      join(at.root, '.warden', 'config.json'),
      JSON.stringify({ sandbox: { network: [`127.0.0.1:${port}`] } }),
    );
    const model = await fakeModel(later, [run(curl(`http://127.0.0.1:${port}/pkg`), [`127.0.0.1:${port}`])]);
    const r = await headlessWarden(at, model, ['-p', 'install']);
    expect(`${r.stdout}${r.stderr}`).toContain('sandbox.network ignored');
    expect(toolText(model.requests)).toContain('no_approver');
    expect(hits).toEqual([]);
  });

  const cert = makeTestCert();
  it.skipIf(!cert)(
    'https through a CONNECT tunnel: TLS end to end, the proxy sees only the host',
    async () => {
      const tls = cert as NonNullable<typeof cert>;
      const secure = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        hits.push(`https ${req.url}`);
        res.end('secure package\n');
      });
      secure.listen(0, '127.0.0.1');
      await once(secure, 'listening');
      later(() => new Promise<void>((resolve) => secure.close(() => resolve())));
      const host = `127.0.0.1:${(secure.address() as AddressInfo).port}`;
      const at = tempPlaces(later, 'net-tls');
      copyFileSync(tls.certFile, join(at.root, 'ca.crt'));
      homeAllowing(at.home, [host]);
      const model = await fakeModel(later, [
        run(curl(`https://${host}/secret?token=abc`, '--cacert ca.crt'), [host]),
      ]);
      await headlessWarden(at, model, ['-p', 'fetch']);
      expect(toolText(model.requests)).toContain('secure package\n status=200');
      expect(hits).toEqual(['https /secret?token=abc']);
      const line = auditLines(at.home).find((l) => l.phase === 'connection');
      expect(line.args).toEqual({ connection: `CONNECT ${host}` });
    },
  );
});

describe.skipIf(!sandboxed)('the card (a pty)', () => {
  it('shows the hosts the run may reach; approving it lets the command reach exactly those', async () => {
    const host = `127.0.0.1:${port}`;
    const { app, home } = await launch(
      [run(curl(`http://${host}/from-card`), [host]), { text: 'Installed.' }],
      {
        prompt: 'install',
      },
    );
    await app.waitFor('Approval needed');
    await app.waitFor(`network: ${host} only (warden's proxy)`);
    await app.waitFor(`reaches  ${host} — this machine: a service running here`);
    await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
    // An address of this machine is high risk: y, then y again to confirm.
    await app.pressOnCard('y', 'press y again');
    app.press('y');
    await app.waitFor('Installed.');
    expect(hits).toEqual(['/from-card']);
    const line = auditLines(home).find((l) => l.phase === 'connection');
    expect(line).toMatchObject({
      decision: 'allow',
      approver: 'human',
      args: { connection: `GET http://${host}/from-card` },
    });
  });
});
