/** Types of secretlint-preset.js, the preset's published bundle copied by scripts/refresh-secretlint-preset.mjs. */

/** The preset's rules (secretlint rule creators), in the preset's order. */
export declare const rules: readonly unknown[];

/** The preset itself, as the package exports it. */
export declare const creator: unknown;

/** Where the copy comes from: package, version, the tarball's integrity, licence and its declared engines. */
export declare const PRESET_SOURCE: {
  package: string;
  version: string;
  integrity: string;
  license: string;
  engines: Record<string, string>;
  refreshedBy: string;
};
