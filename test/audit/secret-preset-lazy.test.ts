import { describe, expect, it, vi } from 'vitest';

// Counts loads of the preset: start-up must not pay for it (issue 16), a token must still meet it.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/audit/secret-preset', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/audit/secret-preset')>();
  return {
    presetRules: () => {
      loads.count++;
      return real.presetRules();
    },
  };
});

const { redactString } = await import('../../src/audit/secret-patterns');

describe('the maintained preset loads on first need', () => {
  it('is not loaded by importing the redactor or by text no rule could match, and is by a token', () => {
    expect(loads.count).toBe(0);
    expect(redactString('write_file out.txt: hello world')).toBe('write_file out.txt: hello world');
    expect(loads.count).toBe(0);
    // A Linear key: only the preset knows its shape.
    const token = `lin_api_${'aB3dE5fG7h'.repeat(4)}`;
    expect(redactString(`token ${token}`)).toBe('token [REDACTED:linear]');
    expect(loads.count).toBe(1);
    redactString(`again ${token}`);
    expect(loads.count).toBe(1);
  });
});
