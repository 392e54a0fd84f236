import { describe, expect, it } from 'vitest';
import { screenProjectConfig } from '../../src/config/screen';

describe('reviewTurns from a project config', () => {
  it.each([
    [false, undefined, 1],
    [true, true, 0],
  ])(
    'reviewTurns %s → kept as %s, %i warning(s): a project cannot hide what a turn changed',
    (value, kept, warned) => {
      const warnings: string[] = [];
      const screened = screenProjectConfig({ reviewTurns: value }, '/p/.warden/config.json', warnings);
      expect(screened.trusted.reviewTurns).toBe(kept);
      expect(screened.untrusted.reviewTurns).toBe(kept);
      expect(warnings).toHaveLength(warned);
    },
  );
});
