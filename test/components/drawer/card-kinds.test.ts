import { describe, expect, it } from 'vitest';
import { CARD_KINDS, cardHelpRows } from '../../../components/drawer/card-kinds';
import { CARD_VIEWS } from '../../../components/drawer/preview/ApprovalPreview';

describe('the card kinds: one entry each, pure half and view', () => {
  it('every kind has both halves', () => {
    expect(Object.keys(CARD_VIEWS).sort()).toEqual(Object.keys(CARD_KINDS).sort());
  });

  it('every kind has help rows and a footer from the key map its keys go through', () => {
    for (const kind of Object.keys(CARD_KINDS) as (keyof typeof CARD_KINDS)[])
      expect(cardHelpRows(kind).length).toBeGreaterThan(3);
  });
});
