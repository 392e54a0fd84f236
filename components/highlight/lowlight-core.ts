/**
 * lowlight's engine without its grammar sets: a module of its own, imported on demand, so the bundle's
 * chunk for it holds `createLowlight` alone (lowlight has no side effects, so its `all` and `common`
 * sets are left out) and each grammar comes from grammars.ts when a file needs it.
 */
export { createLowlight } from 'lowlight';
