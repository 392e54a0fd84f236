import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnIndex } from '../../src/checkpoint/turn-index';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();
const indexFile = () => join(temp('warden-turns-'), 'turns.jsonl');

describe('the turn index', () => {
  it('merges the lines of a turn and skips a torn one', () => {
    const file = indexFile();
    writeFileSync(
      file,
      [
        JSON.stringify({ turnId: 't1', sessionId: 's', startedAt: '1', before: 'a' }),
        JSON.stringify({ turnId: 't1', after: 'b', endedAt: '2' }),
        '{"turnId": "t2", "sess',
      ].join('\n'),
    );
    const index = new TurnIndex(file);
    expect(index.get('t1')).toEqual({
      turnId: 't1',
      sessionId: 's',
      startedAt: '1',
      before: 'a',
      after: 'b',
      endedAt: '2',
    });
    expect(index.get('t2')).toBeUndefined();
    expect(index.undoable().map((t) => t.turnId)).toEqual(['t1']);
  });

  it('is read on first use, not when built: a line written in between counts', () => {
    const file = indexFile();
    const index = new TurnIndex(file);
    appendFileSync(file, `${JSON.stringify({ turnId: 't1', sessionId: 's', startedAt: '1' })}\n`);
    expect(index.get('t1')?.sessionId).toBe('s');
  });

  it('put merges with what the file held and appends one line', () => {
    const file = indexFile();
    writeFileSync(file, `${JSON.stringify({ turnId: 't1', sessionId: 's', startedAt: '1', before: 'a' })}\n`);
    const index = new TurnIndex(file);
    expect(index.put({ turnId: 't1', after: 'b' })).toMatchObject({ before: 'a', after: 'b' });
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});
