/**
 * Who and where on every audit line (issue 32 §1): the writer splices the identity into each line,
 * redacted once; the project's git remote is read from its config without credentials.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditIdentity } from '../../src/audit/identity/audit-identity';
import { gitRemote, remoteUrl, withoutCredentials } from '../../src/audit/identity/git-remote';
import { sessionIdentity } from '../../src/audit/identity/session-identity';
import { createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanups.splice(0).reverse()) f();
});

describe('withoutCredentials', () => {
  it.each([
    [
      'https://x-access-token:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git',
      'https://[REDACTED]@github.com/o/r.git',
    ],
    ['https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r', 'https://[REDACTED]@github.com/o/r'],
    ['http://gitlab.example/o/r.git?private_token=abc', 'http://gitlab.example/o/r.git'],
    ['https://github.com/o/r.git', 'https://github.com/o/r.git'],
    ['git@github.com:o/r.git', 'git@github.com:o/r.git'],
    ['ssh://git@host.example:2222/o/r.git', 'ssh://git@host.example:2222/o/r.git'],
  ])('%s', (url, shown) => {
    expect(withoutCredentials(url)).toBe(shown);
  });
});

describe('gitRemote', () => {
  it("origin's URL from .git/config, else the first remote; a worktree's from its common dir", () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const repo = join(t.dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(
      join(repo, '.git', 'config'),
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://u.example/up.git\n[remote "origin"]\n\turl = https://tok:en@github.com/o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    mkdirSync(join(repo, 'sub', 'dir'), { recursive: true });
    expect(gitRemote(join(repo, 'sub', 'dir'))).toBe('https://[REDACTED]@github.com/o/r.git');
    expect(remoteUrl('[remote "upstream"]\n\turl = git@h:o/up.git\n')).toBe('git@h:o/up.git');
    // A worktree: .git is a file naming its gitdir, whose commondir is the repository's.
    const wt = join(t.dir, 'wt');
    mkdirSync(join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'wt')}\n`);
    expect(gitRemote(wt)).toBe('https://[REDACTED]@github.com/o/r.git');
    expect(gitRemote(t.dir)).toBeUndefined();
  });
});

describe('the writer puts the identity on every line', () => {
  it('user, host, project, version and the model as it is when the line is written', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    let model = 'model-a';
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's',
      onError: () => {},
      identity: sessionIdentity('/nowhere/project', () => model),
      probeEveryMs: 0,
    });
    const first = writer.append(record({ argsHash: '1' }));
    model = 'model-b';
    writer.append(record({ argsHash: '2' }));
    writer.close();
    const lines = readFileSync(join(t.dir, 'audit-2025-01-02.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect(line).toMatchObject({
        user: expect.any(String),
        host: expect.any(String),
        wardenVersion: '0.1.0',
      });
      expect(line.project).toEqual({ root: '/nowhere/project' });
    }
    expect(lines.map((l) => l.model)).toEqual(['model-a', 'model-b']);
    // What the append returns is the line as written.
    expect(first.ok && JSON.parse(first.line)).toEqual(lines[0]);
  });

  it('the identity is redacted like the rest of the line', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const identity: AuditIdentity = {
      user: 'u',
      host: 'h',
      project: { root: '/p', remote: 'https://github.com/o/r?x=1' },
      wardenVersion: '0',
      model: 'ghp_Qx7fK2pLm9Zt4Rw8Yb3Nc6Hd1Vj5Gs0Ea2Tu',
    };
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's',
      onError: () => {},
      identity: () => identity,
    });
    writer.append(record());
    writer.close();
    const text = readFileSync(join(t.dir, 'audit-2025-01-02.jsonl'), 'utf8');
    expect(text).not.toContain('Qx7fK2pLm9Zt4Rw8Yb3Nc6Hd1Vj5Gs0Ea2Tu');
    expect(text).toContain('"model":"[REDACTED');
  });
});
