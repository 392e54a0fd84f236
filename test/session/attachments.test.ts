/**
 * `@path` in a prompt: completion lists project entries through the fence without ignored ones;
 * attaching reads through the gate as the person (fence, credential rule, audit), size-capped.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PathFence } from '../../src/policy/guards/path-guard';
import type { CoreEvent } from '../../src/protocol';
import { ATTACH_MAX_CHARS, attachMentions, mentionedPaths } from '../../src/session/attachments';
import { completePath } from '../../src/session/path-complete';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditDayFiles } from '../helpers/audit-lines';

describe('mentionedPaths', () => {
  it.each<[string, string[]]>([
    ['explain @src/a.ts please', ['src/a.ts']],
    ['@a.ts and @b.ts, then @a.ts again.', ['a.ts', 'b.ts']],
    ['see (@docs/x.md)', []],
    ['mail me at bob@example.com', []],
    ['is @src/a.ts? yes', ['src/a.ts']],
    ['@', []],
    ['two lines\n@README.md', ['README.md']],
  ])('%j → %j', (text, paths) => {
    expect(mentionedPaths(text)).toEqual(paths);
  });
});

let root: string;
let outside: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-complete-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'warden-outside-')));
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  mkdirSync(join(root, 'src/components'), { recursive: true });
  mkdirSync(join(root, 'node_modules/x'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (const f of [
    'src/app.ts',
    'src/api.ts',
    'src/build.log',
    'README.md',
    'readme-old.md',
    '.env',
    'dist/out.js',
  ])
    writeFileSync(join(root, f), 'x');
  writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n');
  symlinkSync(outside, join(root, 'src/link-out'));
  symlinkSync(join(root, 'src/components'), join(root, 'src/link-in'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('completePath', () => {
  it.each<[string, string[]]>([
    ['', ['src/', 'README.md', 'readme-old.md']],
    ['R', ['README.md']],
    ['s', ['src/']],
    ['src/', ['src/components/', 'src/link-in/', 'src/api.ts', 'src/app.ts']],
    ['src/a', ['src/api.ts', 'src/app.ts']],
    ['./src/app', ['./src/app.ts']],
    ['.', ['.env', '.gitignore']],
    ['dist', []],
    ['src/build', []],
    ['node', []],
    ['src/link-out', []],
    ['src/link-out/', []],
    ['../', []],
    [`${'../'.repeat(3)}etc/`, []],
    ['/etc/pass', []],
    ['nothing-here/', []],
  ])('%j → %j', (prefix, matches) => {
    expect(completePath(new PathFence(root), prefix)).toEqual(matches);
  });

  it('stays fast on a wide folder (one readdir)', () => {
    const wide = join(root, 'wide');
    mkdirSync(wide);
    for (let i = 0; i < 3000; i++) writeFileSync(join(wide, `f${i}.txt`), '');
    const fence = new PathFence(root);
    const t0 = performance.now();
    const hits = completePath(fence, 'wide/f1');
    const ms = performance.now() - t0;
    expect(hits).toHaveLength(50);
    expect(readdirSync(wide)).toHaveLength(3000);
    expect(ms).toBeLessThan(500);
  });
});

describe('attachMentions (unit)', () => {
  it('attaches what the read returns, cut at the cap, and leaves non-files as text', async () => {
    const notices: string[] = [];
    const text = await attachMentions('see @src/app.ts and @nothing and @src/api.ts', {
      fence: new PathFence(root),
      read: async (path) =>
        path === 'src/app.ts'
          ? { status: 'executed', output: 'x'.repeat(ATTACH_MAX_CHARS + 10) }
          : { status: 'executed', output: '1\tshort' },
      notice: (_, line) => notices.push(line),
    });
    expect(text).toContain('<attached-file path="src/app.ts">');
    expect(text).toContain('<attached-file path="src/api.ts">\n1\tshort\n</attached-file>');
    expect(text).toContain('[attachment cut at');
    expect(text).not.toContain('x'.repeat(ATTACH_MAX_CHARS + 1));
    expect(text).not.toContain('@nothing was not attached');
    expect(notices).toEqual(['Attached @src/app.ts (first 59 KB).', 'Attached @src/api.ts.']);
  });

  it('a path outside the project is never read', async () => {
    const reads: string[] = [];
    const notices: string[] = [];
    const text = await attachMentions(`@${join(outside, 'secret.txt')} and @src/link-out/secret.txt`, {
      fence: new PathFence(root),
      read: async (path) => {
        reads.push(path);
        return { status: 'executed', output: 'outside' };
      },
      notice: (_, line) => notices.push(line),
    });
    expect(reads).toEqual([]);
    expect(text).not.toContain('<attached-file');
    expect(notices).toHaveLength(2);
    for (const n of notices) expect(n).toMatch(/^Not attached: @.*outside the project/);
  });
});

describe('@path in a session (through the gate)', () => {
  let h: SessionHarness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  const userMessage = (): string => {
    const body = h?.fake.requests[0]?.body as { messages: { role: string; content: string }[] };
    return body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  };
  const notices = (): string[] =>
    (h?.events ?? []).flatMap((e: CoreEvent) => (e.type === 'notice' ? [e.text] : []));
  const auditLines = (): { tool: string; agentId: string; outcome: string; args: unknown }[] => {
    const dir = join(h?.home ?? '', 'audit');
    return auditDayFiles(dir).flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
  };

  it('attaches a project file to the message, audited as read by the person', async () => {
    h = await startSession([{ text: 'ok' }], { files: { 'src/a.ts': 'export const a = 1;\n' } });
    const result = await h.session.run('explain @src/a.ts');
    expect(result.status).toBe('done');
    expect(userMessage()).toMatch(
      /^explain @src\/a\.ts\n\n<attached-file path="src\/a\.ts">\n.*export const a = 1;/s,
    );
    expect(notices()).toContain('Attached @src/a.ts.');
    expect(auditLines()).toContainEqual(
      expect.objectContaining({ tool: 'read_file', agentId: 'user', outcome: 'executed' }),
    );
  });

  it('a credential file asks the person; rejected, it is not attached and the model is told', async () => {
    h = await startSession([{ text: 'ok' }], { files: { '.env': 'API_TOKEN=s3cr3t-value\n' } });
    const run = h.session.run('check @.env');
    const request = await h.nextRequest();
    expect(request).toMatchObject({ tool: 'read_file', agentName: 'you', args: { path: '.env' } });
    h.decide(request.id, { kind: 'reject' });
    await run;
    expect(userMessage()).not.toContain('s3cr3t-value');
    expect(userMessage()).toContain('(@.env was not attached: rejected by the person.)');
    expect(notices().some((n) => n.startsWith('Not attached: @.env (rejected'))).toBe(true);
  });

  it('a credential file approved on its card is attached', async () => {
    h = await startSession([{ text: 'ok' }], { files: { '.env': 'API_TOKEN=s3cr3t-value\n' } });
    const run = h.session.run('check @.env');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'approve', confirmHigh: true });
    await run;
    expect(userMessage()).toContain('<attached-file path=".env">');
  });

  it('with nobody to ask (headless), a credential file fails closed: not attached', async () => {
    h = await startSession([{ text: 'ok' }], {
      approver: false,
      files: { '.env': 'API_TOKEN=s3cr3t-value\n' },
    });
    await h.session.run('check @.env');
    expect(userMessage()).not.toContain('s3cr3t-value');
    expect(userMessage()).toContain('(@.env was not attached:');
    expect(h.session.client.snapshot().pending).toEqual([]);
  });

  it('complete_path is answered by path_completions with the same requestId', async () => {
    h = await startSession([], {
      files: { 'src/a.ts': '', 'src/b.ts': '', 'ignored.log': '', '.gitignore': '*.log\n' },
    });
    h.session.client.send({ type: 'complete_path', requestId: 'r1', prefix: 'src/' });
    h.session.client.send({ type: 'complete_path', requestId: 'r2', prefix: 'ig' });
    h.session.client.send({ type: 'complete_path', requestId: 'r3', prefix: '../' });
    const answers = h.events.filter((e) => e.type === 'path_completions');
    expect(answers).toEqual([
      { type: 'path_completions', requestId: 'r1', prefix: 'src/', matches: ['src/a.ts', 'src/b.ts'] },
      { type: 'path_completions', requestId: 'r2', prefix: 'ig', matches: [] },
      { type: 'path_completions', requestId: 'r3', prefix: '../', matches: [] },
    ]);
  });
});
