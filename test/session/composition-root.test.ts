/**
 * The two hubs stay small: the composition root only builds (its parts own and wire), the gate reads
 * as its sequence. A feature that adds lines here belongs in an owner or a wiring module instead.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lines = (path: string) => readFileSync(join(repo, path), 'utf8').split('\n').length - 1;

describe('the hubs stay small', () => {
  it.each([
    ['src/session/session.ts', 250],
    ['src/gate/gate.ts', 400],
  ])('%s has at most %i lines', (path, limit) => {
    expect(lines(path)).toBeLessThanOrEqual(limit);
  });

  it("the gate's first comment states its sequence, in order", () => {
    const head = readFileSync(join(repo, 'src/gate/gate.ts'), 'utf8').split('*/')[0] ?? '';
    const steps = ['guards', 'policy', 'grants', 'person', 'token', 're-check', 'run', 'audit'];
    const at = steps.map((s) => head.search(new RegExp(`\\d ${s}\\b`)));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('the session keeps its mode, rules and sandbox verdict in one owner (no `let mode` in the root)', () => {
    const root = readFileSync(join(repo, 'src/session/session.ts'), 'utf8');
    expect(root).not.toMatch(/\blet (mode|rules|sandbox)\b/);
    expect(root).toMatch(/new SessionSettings\(/);
  });
});
