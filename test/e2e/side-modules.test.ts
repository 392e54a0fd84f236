import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { SIDE_MODULES } from '../../scripts/side-modules.mjs';
import { WARDEN_BIN } from '../helpers/pty';

type Side = { pkg: string; name: string; file: string };
const require = createRequire(import.meta.url);

/** A comparable outline of a module export: its type, and for objects and functions their own keys. */
function outline(value: unknown): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return typeof value;
  return { type: typeof value, keys: Object.keys(value as object).sort() };
}

// The bundle loads these packages on first use from dist/chunks (issue 16): each side file must hand
// over the package's own export, or validation, redaction or markdown would break only in the binary.
describe('the side files of the bundle', () => {
  it.each(SIDE_MODULES as Side[])('$file holds $pkg’s $name', async (m) => {
    const side = require(join(dirname(WARDEN_BIN), 'chunks', m.file));
    // A file copied into the repository is named from its root (`./src/…`), a package by its name.
    const real = await import(m.pkg.startsWith('./') ? join(import.meta.dirname, '..', '..', m.pkg) : m.pkg);
    const exported = m.name === '*' ? side.all : side[m.name];
    const expected = m.name === '*' ? real : real[m.name];
    expect(exported).toBeDefined();
    if (m.name === '*') expect(Object.keys(exported).sort()).toEqual(Object.keys(expected).sort());
    else expect(outline(exported)).toEqual(outline(expected));
  });
});
