import { describe, expect, it } from 'vitest';
import { helpColumns } from '../../../components/drawer/help-columns';

const rows = Array.from({ length: 15 }, (_, i) => ({ keys: `k${i}`, does: `does ${i}` }));

describe('helpColumns (issue 33: ? help fits the card)', () => {
  it('one row per key when they fit, with the mistakes note', () => {
    const l = helpColumns(rows, 120, 20);
    expect(l.lines).toHaveLength(15);
    expect(l.note).toBe(true);
    expect(l.height).toBe(17);
  });
  it('in a short card the keys go into columns: every key is shown and the layout never passes the height', () => {
    for (const height of [4, 6, 9, 12]) {
      const l = helpColumns(rows, 80, height);
      expect(l.height).toBeLessThanOrEqual(height);
      expect(l.lines.flat().map((c) => c.keys)).toHaveLength(15);
      expect(new Set(l.lines.flat().map((c) => c.keys)).size).toBe(15);
    }
    expect(helpColumns(rows, 80, 9).lines[0]?.map((c) => c.keys)).toEqual(['k0', 'k8']);
  });
});
