/**
 * A ModelClient whose code loads on first use: the OpenAI client (the `openai` package, ~170 kB of
 * bundle) is not needed to draw the first screen, so start-up does not compile it.
 */
import type { ModelClient } from './types';

/**
 * Wraps `load` (called once, on the first request or model listing) as a ModelClient named `name`.
 * `/model` switches before the load are kept and applied to the loaded client.
 * Contract: a failed load rejects that call and the next call tries again; never throws synchronously.
 */
export function lazyModelClient(name: string, load: () => Promise<ModelClient>): ModelClient {
  let model = name;
  let loading: Promise<ModelClient> | undefined;
  const client = (): Promise<ModelClient> => {
    loading ??= load().then(
      (loaded) => {
        loaded.setModel?.(model);
        return loaded;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  return {
    get name() {
      return model;
    },
    demo: false,
    complete: async (request) => (await client()).complete(request),
    setModel: (next) => {
      model = next;
      void loading?.then(
        (loaded) => loaded.setModel?.(next),
        () => {},
      );
    },
    // Loads the client now (an idle moment) and warms it; a failed load is met again by the first request.
    warmUp: () =>
      client().then(
        (loaded) => loaded.warmUp?.(),
        () => undefined,
      ),
    listModels: async (signal) => {
      const loaded = await client();
      if (!loaded.listModels) throw new Error('this model server cannot list its models');
      return loaded.listModels(signal);
    },
  };
}
