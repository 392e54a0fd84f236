/**
 * Red team, issue 26 §1: what a sandboxed command can READ. The old sandbox bound the host's `/`
 * read-only, so `cat /var/tmp/…/secret.txt`, `~/.ssh/id_rsa` or another project's files reached the
 * model in auto mode while read_file refused the same path. Now the view is the system folders, the
 * project, a private /tmp and a private home: everything else is "No such file or directory", and
 * the result says how the person widens it. Every case runs in real bash under real bubblewrap, with
 * a planted secret that no output may hold; the twins are what real work needs and must keep working.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Boundary, bwrap, MARK, makeBoundary } from './boundary-harness';
import { findOnPath } from '../../src/tools/exec/sandbox';

describe.skipIf(!bwrap)(
  'a sandboxed command reads the system and the project, nothing else of the host',
  () => {
    let b: Boundary;
    beforeAll(() => {
      b = makeBoundary();
    });
    afterAll(() => b.cleanup());

    const leaks: [string, (b: Boundary) => string][] = [
      ['an absolute path outside the project', (x) => `cat ${x.outside}/secret.txt`],
      ['a relative path with ..', (x) => `cat ${relative(x.root, x.outside)}/secret.txt`],
      ['through a glob outside', (x) => `cat ${x.outside}/*`],
      ['a recursive grep of the outside folder', (x) => `grep -r ${MARK.slice(0, 12)} ${x.outside}`],
      ['find over the whole file system', () => `find / -name secret.txt -exec cat {} + 2>/dev/null`],
      ['the home’s SSH key', () => 'cat ~/.ssh/id_rsa'],
      ['the home’s AWS credentials', () => 'cat "$HOME/.aws/credentials"'],
      ['the home’s npm token', () => 'cat ~/.npmrc'],
      ['the shell history', () => 'cat ~/.bash_history'],
      ['a recursive grep of the home', () => `grep -r ${MARK.slice(0, 12)} ~ 2>/dev/null`],
      ['the cargo token beside a toolchain on PATH', () => 'cat ~/.cargo/credentials.toml'],
      ['warden’s audit log', () => 'cat ~/.warden/audit/*'],
      ['warden’s saved sessions', () => 'cat ~/.warden/sessions/*'],
      ['the key that signs answers from elsewhere', () => 'cat ~/.warden/keys/answers.key'],
      ['python reading outside', (x) => `python3 -c "print(open('${x.outside}/secret.txt').read())"`],
      [
        'node reading outside',
        (x) => `node -e "console.log(require('fs').readFileSync('${x.outside}/secret.txt','utf8'))"`,
      ],
      ['tar of the outside folder', (x) => `tar -cf - ${x.outside} 2>/dev/null | strings`],
      ['a copy out through /tmp', (x) => `cp ${x.outside}/secret.txt /tmp/s; cat /tmp/s`],
      ['the gitconfig’s credential helper and token URL', () => 'cat ~/.gitconfig'],
    ];

    it.each(leaks)('%s: no secret in the output', async (_name, command) => {
      const r = await b.run(command(b));
      expect(r.text).not.toContain(MARK);
    });

    it('a command cannot plant an answer in warden’s answers folder (it sees a private home)', async () => {
      const r = await b.run('mkdir -p ~/.warden/answers && echo forged > ~/.warden/answers/x.json; echo $?');
      expect(r.text).toBeDefined();
      expect(existsSync(join(b.wardenHome, 'answers', 'x.json'))).toBe(false);
    });

    it.each([
      ['a link the clone ships to a file outside', (x: Boundary) => x.outside],
      ['a link the clone ships to the home’s key', (x: Boundary) => join(x.home, '.ssh')],
    ])('%s: reads nothing', async (_name, target) => {
      const link = `link-${Math.random().toString(36).slice(2)}`;
      symlinkSync(target(b), join(b.root, link));
      const r = await b.run(`cat ${link}/* ${link}/secret.txt ${link}/id_rsa 2>&1; ls ${link}`);
      expect(r.text).not.toContain(MARK);
    });

    it.each(['/var', '/srv', '/mnt', '/media', '/run', '/home', '/root', '/boot', '/sys'])(
      '%s is absent',
      async (folder) => {
        const r = await b.run(`ls -d ${folder} 2>&1 || echo absent`);
        expect(r.text).toMatch(/No such file or directory/);
      },
    );

    it('the top level holds only the view', async () => {
      const r = await b.run('ls -A /');
      const names = r.text.split('\n[')[0]?.split('\n').filter(Boolean) ?? [];
      const allowed = new Set([
        'usr',
        'bin',
        'sbin',
        'lib',
        'lib32',
        'lib64',
        'libx32',
        'etc',
        'opt',
        'dev',
        'proc',
        'tmp',
      ]);
      // The project and the fake home live under /tmp here; a PATH folder elsewhere adds its own top folder.
      const onPath = new Set((process.env.PATH ?? '').split(':').map((p) => p.split('/')[1]));
      for (const n of names) expect(allowed.has(n) || onPath.has(n), n).toBe(true);
    });

    it.each(['/etc/shadow', '/etc/gshadow', '/etc/sudoers'])('%s reads as empty', async (file) => {
      if (!existsSync(file)) return;
      const r = await b.run(`wc -c < ${file}`);
      expect(r.text).toMatch(/^0\n/);
    });

    it('no host process is visible (its command line holds a secret)', async () => {
      const sleeper = spawn('sleep', ['30', MARK], { stdio: 'ignore' });
      try {
        const r = await b.run('cat /proc/*/cmdline 2>/dev/null | tr "\\0" " "; ls /proc | grep -c "^[0-9]"');
        expect(r.text).not.toContain(MARK);
      } finally {
        sleeper.kill();
      }
    });

    it('the result says a path is outside what commands can see and how the person adds it', async () => {
      const r = await b.run(`cat ${b.outside}/secret.txt`);
      expect(r.text).toContain('No such file or directory');
      expect(r.text).toContain(`${b.outside}/secret.txt is outside what commands can see`);
      expect(r.text).toContain('"readPaths"');
    });

    describe('twins that must keep working', () => {
      it('the person’s readPaths make a folder readable (read-only)', async () => {
        const r = await b.run(`cat ${b.outside}/secret.txt; echo x > ${b.outside}/new 2>&1`, {
          readPaths: [b.outside],
        });
        expect(r.text).toContain(MARK);
        expect(r.text).toMatch(/Read-only file system/);
        expect(existsSync(join(b.outside, 'new'))).toBe(false);
      });

      it('the private home keeps the git identity, and nothing else of the gitconfig', async () => {
        const r = await b.run(
          'git config --global user.name; git config --global user.email; git config --global --list',
        );
        expect(r.text).toMatch(/^Pat\npat@example\.com\n/);
        expect(r.text.split('\n[')[0]).not.toMatch(/credential|insteadof/i);
      });

      it('the package cache of the home is there, read-only', async () => {
        const r = await b.run('cat ~/.npm/_cacache/index-v5/x; touch ~/.npm/_cacache/y 2>&1');
        expect(r.text).toContain('cache entry');
        expect(r.text).toMatch(/Read-only file system/);
      });

      it('a toolchain on PATH under the home runs', async () => {
        const r = await b.run('~/.cargo/bin/cargo-fake');
        expect(r.text).toContain('fake cargo');
      });

      it('the home is private and writable, and gone after the run', async () => {
        const r = await b.run('echo scratch > ~/note && cat ~/note');
        expect(r.text).toContain('scratch');
        expect(existsSync(join(b.home, 'note'))).toBe(false);
      });

      it.skipIf(!findOnPath('cc'))('a C build reads the system headers', async () => {
        b.write('hello.c', '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n');
        const r = await b.run('cc -o /tmp/hello hello.c && /tmp/hello');
        expect(r.text).toContain('built');
      });

      it('npm test runs the project’s tests', async () => {
        b.write('npm-twin/package.json', '{"name":"t","version":"1.0.0","scripts":{"test":"node t.js"}}');
        b.write('npm-twin/t.js', 'console.log("tests pass")');
        const r = await b.run('cd npm-twin && npm test 2>&1');
        expect(r.text).toContain('tests pass');
        expect(r.exitCode).toBe(0);
      });

      it('/etc/passwd, /usr/include and the project read as on the host', async () => {
        b.write('readme.txt', 'project text\n');
        const r = await b.run(
          'head -1 /etc/passwd; ls /usr/include >/dev/null && echo headers; cat readme.txt',
        );
        expect(r.text).toContain(readFileSync('/etc/passwd', 'utf8').split('\n')[0] as string);
        expect(r.text).toContain('project text');
      });
    });
  },
);

describe('the outside note names only paths', () => {
  it('a URL, a system path and a /tmp path get no note; a path outside does', async () => {
    const { unseenPaths } = await import('../../src/tools/exec/sandbox-view');
    const view = { args: [], visible: ['/usr', '/tmp', '/dev', '/proc', '/h'], home: '/h' };
    expect(unseenPaths('curl https://example.com/x /usr/bin/env /tmp/a ~/b', view, '/p')).toEqual([]);
    expect(unseenPaths('cat /var/log/syslog PATH=/opt2/bin', view, '/p')).toEqual([
      '/var/log/syslog',
      '/opt2/bin',
    ]);
  });
});
