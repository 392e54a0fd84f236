/**
 * Red team: audit lines stay bounded and secret-free whatever the size of what is audited — a
 * model's huge MCP arguments (thousands of strings or keys: each string was cut, their number was
 * not, and one denied call wrote a 33 MB line), a secret across the writer's 8 KB cut, a secret far
 * past any scan cap.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditWriter } from '../../src/audit/writer';
import type { AuditRecord } from '../../src/protocol/audit';
import { record } from '../audit/helpers';
import { filesHolding } from './secrets-home-grep';
import { auditDayFiles } from '../helpers/audit-lines';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
const TOKEN = `ghp_${'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY'.repeat(2).slice(0, 36)}`;

function writeOne(entry: AuditRecord): { home: string; lines: string[] } {
  const home = mkdtempSync(join(tmpdir(), 'warden-rt-bounds-'));
  homes.push(home);
  const dir = join(home, 'audit');
  const writer = createAuditWriter({
    dir,
    sessionId: 's',
    onError: (e) => {
      throw e;
    },
  });
  expect(writer.append(entry).ok).toBe(true);
  writer.close();
  const lines = auditDayFiles(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean),
  );
  return { home, lines };
}

describe('a huge record is bounded', () => {
  it.each([
    [
      'thousands of long strings',
      { items: Array.from({ length: 4000 }, (_, i) => `${i} ${TOKEN} `.padEnd(8192, 'x')) },
    ],
    [
      'a hundred thousand keys',
      Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, `${i}`])),
    ],
    ['deep arrays of numbers', Array.from({ length: 2000 }, () => Array.from({ length: 200 }, (_, i) => i))],
  ])('%s: one line under 256 KiB, the call still named, no secret', (_, args) => {
    const { home, lines } = writeOne(
      record({
        tool: 'mcp__srv__bulk',
        args,
        editedArgs: args,
        result: JSON.stringify(args),
        argsHash: 'sha-1',
      }),
    );
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line.length).toBeLessThan(256 * 1024);
    const parsed = JSON.parse(line) as AuditRecord;
    expect(parsed.tool).toBe('mcp__srv__bulk');
    expect(parsed.argsHash).toBe('sha-1');
    expect(String(parsed.args)).toMatch(/more chars\]$/);
    expect(filesHolding(home, TOKEN)).toEqual([]);
  });

  it('an ordinary record is written whole', () => {
    const args = { command: 'npm test', items: Array.from({ length: 50 }, (_, i) => `item ${i}`) };
    const { lines } = writeOne(record({ args }));
    expect((JSON.parse(lines[0] ?? '') as AuditRecord).args).toEqual(args);
  });
});

describe('secrets at the cut points', () => {
  it.each([8192 - 40, 8192 - 10, 8192 - 1, 8192, 8192 + 16_384 - 20, 50_000, 1_000_000])(
    'a token at offset %i of a long output is in no file',
    (at) => {
      const text = `${'a '.repeat(at / 2)}${at % 2 ? 'a' : ''}${TOKEN} tail`;
      const { home, lines } = writeOne(record({ args: { content: text }, result: text, reason: text }));
      expect(lines).toHaveLength(1);
      expect(filesHolding(home, TOKEN)).toEqual([]);
      expect(filesHolding(home, TOKEN.slice(0, 12))).toEqual([]);
    },
  );
});
