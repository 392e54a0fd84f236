import { describe, expect, it } from 'vitest';
import { auditResultWord } from '../../../components/panels/audit-look';
import { makeAuditRecord } from '../../helpers/fake-core';

describe('auditResultWord', () => {
  it.each([
    [
      'an outcome line shows its outcome',
      makeAuditRecord({ phase: 'outcome', outcome: 'rejected' }),
      'rejected',
    ],
    [
      'a decision line shows its decision',
      makeAuditRecord({ phase: 'decision', outcome: undefined, decision: 'allow' }),
      'allow',
    ],
    [
      'a queued request shows as requested',
      makeAuditRecord({ phase: 'requested', outcome: undefined, decision: 'ask', approver: 'none' }),
      'requested',
    ],
  ])('%s', (_label, record, word) => {
    expect(auditResultWord(record)).toBe(word);
  });
});
