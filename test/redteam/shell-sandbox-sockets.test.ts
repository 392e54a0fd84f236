/**
 * Red team, the sandbox as the boundary: a read-only bind of `/` does not stop `connect()` on a
 * host Unix socket. Auto mode runs a medium-risk command (`curl --unix-socket /run/docker.sock …`,
 * `systemd-run --user …`, any script) with no card, trusting the sandbox; through such a socket the
 * command asks a service outside to run anything. The socket folders are now hidden.
 * Proved with real bubblewrap against a socket this test serves (outside /tmp, which the sandbox
 * already replaces).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapArgs, findOnPath, type SandboxMask } from '../../src/tools/exec/sandbox';
import { findSocketMasks } from '../../src/tools/exec/sandbox-sockets';

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;
// /var/tmp: outside the sandbox's private /tmp, so only a mask can hide it.
const base = realpathSync(mkdtempSync('/var/tmp/warden-redteam-sock-'));
const runDir = join(base, 'run');
const socket = join(runDir, 'service.sock');
const lone = join(base, 'lone.sock');
const project = join(base, 'project');
const servers: Server[] = [];

beforeAll(async () => {
  mkdirSync(runDir);
  mkdirSync(project);
  for (const path of [socket, lone]) {
    const server = createServer((c) => c.end('reached\n'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
  }
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

/** Whether a command inside the sandbox (with these masks) reaches the socket (async: this process serves it). */
function reaches(path: string, masks: SandboxMask[]): Promise<boolean> {
  const client = `require('net').connect(${JSON.stringify(path)}).on('data', () => process.exit(0)).on('error', () => process.exit(3))`;
  const child = spawn(
    bwrap as string,
    [...bwrapArgs(project, project, masks), process.execPath, '-e', client],
    {
      stdio: 'ignore',
    },
  );
  return new Promise((resolve) => child.once('close', (code) => resolve(code === 0)));
}

describe.skipIf(!bwrap)('a sandboxed command cannot reach a host service through its Unix socket', () => {
  it('without the masks it can (the gap this closes)', async () => {
    expect(await reaches(socket, [])).toBe(true);
    expect(await reaches(lone, [])).toBe(true);
  });

  it('a socket folder and a lone socket file are hidden', async () => {
    const masks = findSocketMasks(undefined, undefined, { dirs: [runDir], files: [lone] });
    expect(masks).toEqual([
      { kind: 'dir', path: runDir },
      { kind: 'file', path: lone },
    ]);
    expect(await reaches(socket, masks)).toBe(false);
    expect(await reaches(lone, masks)).toBe(false);
  });

  it('XDG_RUNTIME_DIR is hidden wherever it lives; a socket inside a hidden folder is not mounted twice', async () => {
    const masks = findSocketMasks(undefined, runDir, { dirs: [], files: [socket] });
    expect(masks).toEqual([{ kind: 'dir', path: runDir }]);
    expect(await reaches(socket, masks)).toBe(false);
  });

  it('paths that do not exist are skipped (a mount point cannot be made on the read-only root)', () => {
    expect(
      findSocketMasks(join(base, 'no-home'), join(base, 'none'), { dirs: [join(base, 'x')], files: [] }),
    ).toEqual([]);
  });
});
