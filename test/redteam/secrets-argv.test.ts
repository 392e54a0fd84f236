/**
 * Red team: an argument list as data (an MCP tool's argv, a `spawn`-style call): `["--password",
 * "x"]` — each string alone reads as no secret, so the value was written in the clear to the
 * audit and session files. The value after a secret-named flag is hidden; references, other
 * flags and plain words stay.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redact, redactJsonText } from '../../src/audit/redact';
import { createAuditWriter } from '../../src/audit/writer';
import { redactedRecordJson } from '../../src/session/saved/record-redact';
import { record } from '../audit/helpers';
import { auditDayFiles } from '../helpers/audit-lines';

const SECRET = 'S3cretPw9x';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('argument lists as data', () => {
  it.each([
    [['psql', '--password', SECRET, '-h', 'db']],
    [['deploy', '--api-key', SECRET]],
    [['login', '--auth-token', SECRET, '--verbose']],
  ])('%j: the audit line and the session line hide the value', (argv) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-rt-argv-'));
    dirs.push(dir);
    const writer = createAuditWriter({
      dir,
      sessionId: 's',
      onError: (e) => {
        throw e;
      },
    });
    expect(writer.append(record({ tool: 'mcp__srv__run', args: { argv } })).ok).toBe(true);
    writer.close();
    const text = auditDayFiles(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED:flag]');
    const call = {
      id: 'c',
      type: 'function' as const,
      function: { name: 'mcp__srv__run', arguments: JSON.stringify({ argv }) },
    };
    expect(redactedRecordJson({ t: 'asked', ts: 't', content: null, calls: [call] })).not.toContain(SECRET);
  });

  it('leaves references, counts and plain lists alone', () => {
    const args = {
      argv: ['gh', '--token', '$GH_TOKEN', '--max-tokens', '100', '-p', 'app', '--password', '--verbose'],
    };
    expect(redact(args)).toEqual(args);
    expect(redactJsonText(JSON.stringify(args))).toBe(JSON.stringify(args));
  });
});
