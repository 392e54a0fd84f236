import { describe, expect, it } from 'vitest';
import { showUrl } from '../../src/text/url-host';

describe('a web card shows the host that is really looked up (issue 27 §4)', () => {
  it('a Cyrillic letter in a Latin name: punycode, and the mix is named', () => {
    const shown = showUrl('https://docs.g\u0456thub.com/en');
    expect(shown).toMatch(/^https:\/\/docs\.xn--gthub-[a-z0-9]+\.com\/en ⚠ /);
    expect(shown).toContain('Latin + Cyrillic');
  });

  it('a whole non-Latin name: punycode, no mixed-script warning', () => {
    const shown = showUrl('https://\u043f\u0440\u0438\u043c\u0435\u0440.com/');
    expect(shown).toMatch(/^https:\/\/xn--e1afmkfd\.com\/ ⚠ /);
    expect(shown).toContain('a non-ASCII host');
  });

  it('an ASCII host and a URL that does not parse stay as written', () => {
    expect(showUrl('https://github.com/a?b=1')).toBe('https://github.com/a?b=1');
    expect(showUrl('not a url')).toBe('not a url');
  });
});
