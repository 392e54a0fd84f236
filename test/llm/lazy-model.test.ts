import { describe, expect, it, vi } from 'vitest';
import { lazyModelClient } from '../../src/llm/lazy-model';
import type { ModelClient, ModelRequest, ModelTurn } from '../../src/llm/types';

function fakeClient(): ModelClient & { models: string[] } {
  const models: string[] = [];
  let model = 'loaded-default';
  return {
    models,
    get name() {
      return model;
    },
    demo: false,
    complete: async () => {
      models.push(model);
      return { text: 'ok' } as unknown as ModelTurn;
    },
    setModel: (name) => {
      model = name;
    },
    listModels: async () => ['a', 'b'],
  };
}

const request = {} as ModelRequest;

describe('lazyModelClient', () => {
  it('loads nothing until the first request, then loads once', async () => {
    const inner = fakeClient();
    const load = vi.fn(async () => inner);
    const client = lazyModelClient('gpt-x', load);
    expect(client.name).toBe('gpt-x');
    expect(load).not.toHaveBeenCalled();
    await Promise.all([client.complete(request), client.complete(request)]);
    await client.listModels?.(new AbortController().signal);
    expect(load).toHaveBeenCalledTimes(1);
    expect(inner.models).toEqual(['gpt-x', 'gpt-x']);
  });
  it('keeps a /model switch made before the load and applies later ones to the loaded client', async () => {
    const inner = fakeClient();
    const client = lazyModelClient('gpt-x', async () => inner);
    client.setModel?.('before');
    expect(client.name).toBe('before');
    await client.complete(request);
    client.setModel?.('after');
    await client.complete(request);
    expect(inner.models).toEqual(['before', 'after']);
  });
  it('rejects the call whose load failed and tries again on the next', async () => {
    const inner = fakeClient();
    const load = vi.fn().mockRejectedValueOnce(new Error('no chunk')).mockResolvedValue(inner);
    const client = lazyModelClient('gpt-x', load);
    await expect(client.complete(request)).rejects.toThrow('no chunk');
    await expect(client.complete(request)).resolves.toBeDefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
