/**
 * `hooks` in config.json: both shapes people write (flat, and Claude Code's nested one) read as the same
 * hooks; matchers as Claude Code reads them, tried on Claude Code's tool name and warden's; what the
 * schema refuses, naming the field.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/read-file';
import { compileHooks, nameOf } from '../../src/hooks/hook-config';
import { compileMatcher } from '../../src/hooks/hook-matcher';

const parse = (hooks: unknown) => parseConfigText('/h/config.json', JSON.stringify({ hooks }));

describe('hooks in config.json', () => {
  it('the flat and the nested shape give the same hooks', () => {
    const flat = parse({
      PreToolUse: [{ matcher: 'Bash', command: 'python3 ~/hooks/guard.py', timeout: 5 }],
    });
    const nested = parse({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ~/hooks/guard.py', timeout: 5 }] },
      ],
    });
    expect(flat.kind).toBe('ok');
    expect(nested.kind).toBe('ok');
    const pick = (r: typeof flat) => {
      if (r.kind !== 'ok') throw new Error('not ok');
      const c = compileHooks(r.file.hooks, 'user', '/h/config.json');
      if (!c.ok) throw new Error(c.error);
      return c.hooks.map(({ matches: _m, ...rest }) => rest);
    };
    expect(pick(flat)).toEqual(pick(nested));
    expect(pick(flat)[0]).toMatchObject({
      event: 'PreToolUse',
      name: 'guard.py',
      timeoutMs: 5000,
      source: 'user',
    });
  });

  it("a hook without a timeout gets Claude Code's minute; names are unique and can be given", () => {
    const read = parse({
      PermissionRequest: [
        { command: 'node approve.js' },
        { command: 'node approve.js' },
        { matcher: '*', hooks: [{ command: 'true', name: 'my-gate' }] },
      ],
    });
    if (read.kind !== 'ok') throw new Error(read.error);
    const c = compileHooks(read.file.hooks, 'project', '/p/.warden/config.json');
    if (!c.ok) throw new Error(c.error);
    expect(c.hooks.map((h) => h.name)).toEqual(['approve.js', 'approve.js#2', 'my-gate']);
    expect(c.hooks[0]?.timeoutMs).toBe(60_000);
  });

  it.each([
    [{ PreToolus: [] }, /PreToolus/],
    [{ PreToolUse: [{ matcher: 'Bash' }] }, /command/],
    [{ PreToolUse: [{ hooks: [{ type: 'prompt', command: 'x' }] }] }, /"command"/],
    [{ PreToolUse: [{ command: 'x', timeout: 0 }] }, /timeout/],
    [{ PreToolUse: [{ command: 'x', timeout: 601 }] }, /600/],
    [{ PreToolUse: [{ command: '' }] }, /non-empty/],
    [{ PreToolUse: [{ command: 'x', name: '../evil' }] }, /hook name/],
  ])('the schema refuses %j', (hooks, message) => {
    const read = parse(hooks);
    expect(read.kind).toBe('error');
    expect(read.kind === 'error' && read.error).toMatch(message);
  });

  it('a matcher the linear-time engine cannot run is an error naming the file and the entry', () => {
    const read = parse({ PostToolUse: [{ matcher: '(a)\\1', command: 'true' }] });
    if (read.kind !== 'ok') throw new Error(read.error);
    const c = compileHooks(read.file.hooks, 'user', '/h/config.json');
    expect(c.ok).toBe(false);
    expect(!c.ok && c.error).toMatch(
      /\/h\/config\.json: hooks\.PostToolUse\[0\]\.matcher: .*back-references/,
    );
  });

  it.each([
    [undefined, ['Bash', 'execute_command'], true],
    ['', ['Write', 'write_file'], true],
    ['*', ['Write', 'write_file'], true],
    ['Bash', ['Bash', 'execute_command'], true],
    ['Bash', ['Write', 'write_file'], false],
    ['Edit|Write', ['Write', 'write_file'], true],
    ['Edit|Write', ['Read', 'read_file'], false],
    ['write_file', ['Write', 'write_file'], true],
    ['mcp__github__.*', ['mcp__github__create_issue', 'mcp__github__create_issue'], true],
    ['mcp__github__.*', ['mcp__gitlab__x', 'mcp__gitlab__x'], false],
    ['.*_file', ['Write', 'write_file'], true],
    ['Bash', ['BashX', 'x'], false],
  ])('matcher %j on %j: %s', (matcher, names, expected) => {
    const m = compileMatcher(matcher);
    if (!m.ok) throw new Error(m.error);
    expect(m.match(names)).toBe(expected);
  });

  it('a name comes from the script the command runs', () => {
    expect(nameOf('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check_style.py')).toBe('check_style.py');
    expect(nameOf('/usr/local/bin/gatekeeper --strict')).toBe('gatekeeper');
    expect(nameOf('jq -r .tool_name')).toBe('jq');
    expect(nameOf('/usr/bin/python3 /home/me/hooks/bash_validator.py')).toBe('bash_validator.py');
  });
});
