/**
 * zod schemas built on first use: a module that declares a schema no longer loads and
 * runs zod at import, so start-up does not pay for it; the first validation (a config file, a tool
 * call) or the first request's tool list does. The schema built is the very one declared, so every
 * check stays exactly as strict.
 */
import type { z as Z } from 'zod';
import { zodRuntime } from './zod-runtime';

const REAL = Symbol('warden.lazySchema');

/**
 * A schema that `build` makes the first time any of its members is read (`safeParse`, `shape`, …),
 * then the same object forever. Contract: behaves as the built schema for every read; pass
 * `realSchema(s)` where zod needs the object itself (`z.toJSONSchema`, registries, identity).
 */
export function lazySchema<S extends Z.ZodType>(build: (z: typeof Z) => S): S {
  let built: S | undefined;
  const real = (): S => {
    built ??= build(zodRuntime().z);
    return built;
  };
  return new Proxy(Object.create(null) as S, {
    get: (_target, key) => (key === REAL ? real() : Reflect.get(real(), key)),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** The schema object behind a `lazySchema` (built now if it was not), or `schema` itself. */
export function realSchema<S extends Z.ZodType>(schema: S): S {
  return ((schema as unknown as Record<symbol, S | undefined>)[REAL] ?? schema) as S;
}

/** zod's `z`, loaded now if it was not: for calls, not declarations (use `lazySchema` for those). */
export function zod(): typeof Z {
  return zodRuntime().z;
}
