import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CARD_KEYS } from '../../../components/keys/keymap';
import { readmeKeysTable, withKeysTable } from '../../../components/keys/readme-keys';

const readme = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md'),
  'utf8',
);

describe("README's keys table", () => {
  it('is the one the keymap writes (npx tsx scripts/readme-keys.ts rewrites it)', () => {
    expect(withKeysTable(readme)).toBe(readme);
  });

  it('names every key of a card, "don\'t ask again" among them', () => {
    const table = readmeKeysTable();
    // Every card key is in the table, as itself or folded into the row before it (`[` in `]/[`).
    for (const row of Object.values(CARD_KEYS)) expect(table).toContain(row.show.split('/')[0]);
    for (const key of ['y', 'a', 'A', 'n', 's', 'e', 'E', 'c', 'p', 'u', 'f', '?'])
      expect(table).toContain(`\`${key}\` `);
    expect(table).toContain("don't ask again (`A`)");
  });
});
