// Issue 27 §4: an untrusted project's config may not choose the model or raise the step limit; both
// are held for the trust card, and a lower step limit (stricter) counts at once.
import { describe, expect, it } from 'vitest';
import { screenProjectConfig } from '../../src/config/screen';

const PATH = '/p/.warden/config.json';

describe('model and step limit from a project config', () => {
  it('held before trust, counted once trusted', () => {
    const screened = screenProjectConfig({ model: 'their-model', maxStepsPerTurn: 500 }, PATH, []);
    expect(screened.untrusted.model).toBeUndefined();
    expect(screened.untrusted.maxStepsPerTurn).toBeUndefined();
    expect(screened.trusted).toMatchObject({ model: 'their-model', maxStepsPerTurn: 500 });
    expect(screened.held.map((h) => h.key)).toEqual(['model', 'maxStepsPerTurn']);
    expect(screened.held[1]?.label).toMatch(/more steps per turn than your 50/);
  });

  it('a lower step limit, or the model you chose yourself, counts at once', () => {
    const screened = screenProjectConfig({ model: 'mine', maxStepsPerTurn: 10 }, PATH, [], {
      model: 'mine',
      maxStepsPerTurn: 80,
    });
    expect(screened.untrusted).toMatchObject({ model: 'mine', maxStepsPerTurn: 10 });
    expect(screened.held).toEqual([]);
  });

  it('above your own higher limit it is held', () => {
    const screened = screenProjectConfig({ maxStepsPerTurn: 100 }, PATH, [], { maxStepsPerTurn: 80 });
    expect(screened.untrusted.maxStepsPerTurn).toBeUndefined();
    expect(screened.held.map((h) => h.key)).toEqual(['maxStepsPerTurn']);
  });
});
