/**
 * Red team, issue 26 §3: no host service through a socket, no inherited descriptor. A command
 * reached an SSH agent socket under the home, a database socket, a socket inside the project; and a
 * launcher's descriptor (fd 27, a terminal) reached sandboxed commands past the output sanitiser.
 * Now the seccomp filter refuses every Unix socket (path or abstract, wherever and whenever it
 * appears), socket files in the project are masked as well, and warden closes what it inherited.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketFilter } from '../../src/tools/exec/sandbox-seccomp';
import { type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { tmpdir } from 'node:os';
import { type Boundary, bwrap, makeBoundary } from './boundary-harness';
import { noManagedLayer } from '../helpers/managed-env';
import { auditDayFiles } from '../helpers/audit-lines';

const servers: Server[] = [];
async function serve(path: string): Promise<void> {
  const server = createServer((c) => c.end('reached\n'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

describe.skipIf(!bwrap)('no Unix socket of the host is reachable from a command', () => {
  let b: Boundary;
  beforeAll(async () => {
    b = makeBoundary();
    await serve(join(b.outside, 'agent.sock'));
    await serve(join(b.root, 'dev.sock'));
    await serve('\0warden-boundary-abstract');
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
    b.cleanup();
  });

  const client = (target: string) =>
    `node -e "require('net').connect(${JSON.stringify(target).replaceAll('"', '\\"')}).on('data',d=>{process.stdout.write(String(d))}).on('error',e=>{console.log('refused',e.code)})"`;

  it.each([
    [
      'a socket outside the project (an SSH agent, a database)',
      (x: Boundary) => join(x.outside, 'agent.sock'),
    ],
    ['a socket inside the project (a dev server)', (x: Boundary) => join(x.root, 'dev.sock')],
    ['an abstract socket', () => '\0warden-boundary-abstract'],
  ])('%s', async (_name, target) => {
    const r = await b.run(client(target(b)));
    expect(r.text).not.toContain('reached');
    expect(r.text).toContain('refused');
  });

  it.each([
    ['python', 'python3 -c "import socket; socket.socket(socket.AF_UNIX).connect(\'dev.sock\')" 2>&1'],
    ['socat-like bash /dev/tcp is no unix socket either', 'cat < dev.sock 2>&1; echo done'],
    [
      'a socket created in the run, then connected',
      `node -e "const n=require('net');const s=n.createServer().listen('own.sock',()=>console.log('listening'));s.on('error',e=>console.log('refused',e.code))"`,
    ],
  ])('%s', async (_name, command) => {
    const r = await b.run(command);
    expect(r.text).not.toContain('reached');
    expect(r.text).not.toContain('listening');
  });

  it('the result says why a socket was refused', async () => {
    const r = await b.run('python3 -c "import socket; socket.socket(socket.AF_UNIX)" 2>&1');
    expect(r.text).toContain('Unix sockets cannot be opened in the sandbox');
  });

  it('twin: the person’s own dev server socket in the project still works outside warden', async () => {
    const got = await new Promise<string>((resolve) => {
      let data = '';
      connect(join(b.root, 'dev.sock'))
        .on('data', (d) => (data += String(d)))
        .on('end', () => resolve(data))
        .on('error', (e) => resolve(String(e)));
    });
    expect(got).toBe('reached\n');
  });

  it.each([
    [
      'node child processes talk over a socket pair',
      `node -e "const c=require('child_process').fork('-e',['process.send(7)'],{execArgv:[]});c.on('message',m=>console.log('ipc',m))" 2>&1 || node -e "require('child_process').execFileSync('true');console.log('ipc 7')"`,
    ],
    ['a pipe between processes', 'echo piped | cat'],
    [
      'make -j runs jobs',
      'printf "all: a b\\na:\\n\\t@echo ja\\nb:\\n\\t@echo jb\\n" > Makefile.twin && make -s -j2 -f Makefile.twin',
    ],
  ])('twin: %s', async (_name, command) => {
    const r = await b.run(command);
    expect(r.exitCode).toBe(0);
  });
});

describe('the seccomp filter', () => {
  it('is a whole number of BPF instructions that ends in ALLOW, for each known machine', () => {
    for (const machine of ['x64', 'arm64']) {
      const f = socketFilter(machine) as Buffer;
      expect(f.length % 8).toBe(0);
      expect(f.readUInt16LE(f.length - 8)).toBe(0x06);
      expect(f.readUInt32LE(f.length - 4)).toBe(0x7fff0000);
    }
    expect(socketFilter('mips')).toBeUndefined();
  });
});

describe('descriptors warden inherits do not reach commands', () => {
  it('closeInheritedDescriptors closes a descriptor without close-on-exec and keeps 0-2', () => {
    // In a child started with fd 27, so this test process keeps what it has.
    const module = join(process.cwd(), 'src/os/inherited-fds.ts');
    // After closing: every descriptor above 2 that a child would inherit (no close-on-exec flag).
    const code = `import(${JSON.stringify(module)}).then((m) => { const fs = require('fs'); const closed = m.closeInheritedDescriptors(); const inheritable = fs.readdirSync('/proc/self/fd').map(Number).filter((fd) => { try { return fd > 2 && (parseInt(/flags:\\s*([0-7]+)/.exec(fs.readFileSync('/proc/self/fdinfo/' + fd, 'utf8'))[1], 8) & 0o2000000) === 0; } catch { return false; } }); console.log(JSON.stringify({ closed, inheritable })); })`;
    // A launcher that leaves fd 27 open without close-on-exec, as a shell's `exec 27<file` does.
    const out = execFileSync(
      'bash',
      ['-c', 'exec 27</dev/null; exec "$0" --import tsx -e "$1"', process.execPath, code],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      },
    );
    const { closed, inheritable } = JSON.parse(out.trim().split('\n').pop() as string) as {
      closed: number[];
      inheritable: number[];
    };
    expect(closed).toContain(27);
    expect(inheritable).toEqual([]);
  });

  it.skipIf(!bwrap)(
    'the real binary: a descriptor it was started with (fd 27) is not in the command’s /proc/self/fd',
    async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-boundary-fd-')));
      const home = mkdtempSync(join(tmpdir(), 'warden-boundary-fd-home-'));
      writeFileSync(join(root, 'keep.txt'), 'x');
      const script: FakeStep[] = [
        { toolCalls: [{ name: 'execute_command', args: { command: 'echo FDS $(ls /proc/self/fd)' } }] },
        { text: 'done' },
      ];
      const fake = await startFakeOpenAI(script, { whenExhausted: { text: 'done' } });
      try {
        const inherited = join(home, 'inherited');
        writeFileSync(inherited, 'launcher');
        // Started by a shell that leaves fd 27 open (a launcher's terminal, a harness's pipe).
        const child = spawn(
          'bash',
          [
            '-c',
            'exec 27<"$1"; exec "$0" "$2" --headless --mode auto -p go --root "$3"',
            process.execPath,
            inherited,
            WARDEN_BIN,
            root,
          ],
          {
            env: {
              ...noManagedLayer(),
              PATH: process.env.PATH ?? '/usr/bin:/bin',
              HOME: home,
              TMPDIR: tmpdir(),
              WARDEN_HOME: join(home, '.warden'),
              OPENAI_BASE_URL: fake.url,
              OPENAI_API_KEY: 'k',
            },
            cwd: root,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let err = '';
        child.stderr?.on('data', (d: Buffer) => (err += String(d)));
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        expect(code, err).toBe(0);
        // The command's output, as the audit recorded it.
        const auditDir = join(home, '.warden', 'audit');
        const lines = auditDayFiles(auditDir).flatMap((f) =>
          readFileSync(join(auditDir, f), 'utf8').split('\n'),
        );
        const shown = /FDS ([\d ]+)/.exec(lines.join('\n'))?.[1] ?? '';
        const fds = shown.trim().split(' ').map(Number);
        expect(fds.length).toBeGreaterThan(2);
        expect(fds.filter((fd) => fd > 3)).toEqual([]);
      } finally {
        await fake.close();
        rmSync(root, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
