import { compileBoundedGlob } from '../../policy/bounded-glob';

type Rule = {
  base: string;
  negate: boolean;
  dirOnly: boolean;
  glob: string;
  test: (relative: string) => boolean;
};

/** Largest .gitignore file read; a larger one is treated as absent. */
export const IGNORE_FILE_MAX_BYTES = 1024 * 1024;

/** Folders no listing or search descends into unless asked. */
export const ALWAYS_SKIPPED_DIRS: readonly string[] = ['.git', 'node_modules'];

/**
 * Hand-made rather than the `ignore` package, for one measured reason: a clone's .gitignore is a
 * stranger's input, and `ignore` (7.0.17) compiles each line to a backtracking RegExp. The line
 * `**` `/x/` `**` `/x/` `**` `/x/` `**` `/x/` `**` `/q` (written without the spaces) took 9 ms on a
 * 100-character path `x/x/…/y`, 157 ms on 200 and 7.3 s on 400; a 1,000-character path did not finish
 * in 120 s. Here every line runs in linear time (RE2).
 *
 * .gitignore rules of a project (root file and nested ones), matched like git: last matching rule wins,
 * a rule from a deeper folder is consulted after the shallower ones, and nothing inside an ignored
 * folder can be re-included.
 * Contract: add the files shallowest first (the root's before a sub-folder's).
 */
export class GitIgnore {
  private readonly rules: Rule[] = [];
  private hasNegation = false;

  /** Adds the rules of the .gitignore file in folder `base` ('' for the root, `/`-separated). */
  add(base: string, text: string): void {
    for (const line of text.split(/\r?\n/)) {
      const rule = parseLine(base, line);
      if (!rule) continue;
      this.rules.push(rule);
      if (rule.negate) this.hasNegation = true;
    }
  }

  /** Is exactly this path ignored (its parent folders not considered)? */
  matches(relative: string, isDir: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      const inside =
        rule.base === ''
          ? relative
          : relative.startsWith(`${rule.base}/`)
            ? relative.slice(rule.base.length + 1)
            : undefined;
      if (inside !== undefined && rule.test(inside)) ignored = !rule.negate;
    }
    return ignored;
  }

  /** Is the path, or any folder above it, ignored? */
  ignores(relative: string, isDir: boolean): boolean {
    const parts = relative.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.matches(parts.slice(0, i).join('/'), true)) return true;
    }
    return this.matches(relative, isDir);
  }

  /**
   * fast-glob `ignore` patterns that safely skip ignored folders' contents during a walk.
   * Empty when any rule negates: re-inclusion makes pruning unsafe, and filtering afterwards stays exact.
   * fast-glob matches them with picomatch's backtracking expressions, so only shapes that cannot
   * backtrack badly are handed over (each segment a name with at most one `*`); the others are
   * matched afterwards, in linear time, by `ignores`.
   */
  pruneGlobs(): string[] {
    if (this.hasNegation) return [];
    return this.rules
      .filter(
        (rule) =>
          !GLOB_IN_BASE.test(rule.base) &&
          !/[\\[\]{}?]/.test(rule.glob) &&
          rule.glob.split('/').every(linearSegment),
      )
      .map((rule) => `${rule.base === '' ? '' : `${rule.base}/`}${rule.glob}/**`);
  }
}

function parseLine(base: string, line: string): Rule | undefined {
  let body = line.replace(/(?<!\\)\s+$/, '');
  if (body === '' || body.startsWith('#')) return undefined;
  let negate = false;
  if (body.startsWith('!')) {
    negate = true;
    body = body.slice(1);
  } else if (body.startsWith('\\!') || body.startsWith('\\#')) {
    body = body.slice(1);
  }
  const dirOnly = body.endsWith('/');
  if (dirOnly) body = body.replace(/\/+$/, '');
  if (body === '') return undefined;
  // A slash anywhere but the end anchors the pattern to the .gitignore's folder.
  const anchored = body.includes('/');
  body = body.replace(/^\/+/, '');
  const glob = anchored ? body : `**/${body}`;
  return { base, negate, dirOnly, glob, test: linearTest(glob) };
}

/**
 * A .gitignore line comes from a stranger's clone: it is matched in linear time (bounded-glob.ts,
 * RE2), as picomatch's backtracking form of `*a*a*a*a*a*a*a*a*b` took 14 s on one long file name
 * (87 s with 60 `a`s) and froze glob_files and `@path` completion. Characters gitignore reads
 * literally but a glob compiler would take for an extglob are escaped first.
 */
function linearTest(glob: string): (relative: string) => boolean {
  const compiled = compileBoundedGlob(glob.replace(/(?<!\\)([+@!()])/g, '\\$1'));
  return compiled.ok ? compiled.test : () => false;
}

/** A folder name fast-glob would read as a pattern: such a folder's rules are not handed to it. */
const GLOB_IN_BASE = /[*?[\]{}\\()!+@]/;

/** A path segment picomatch matches without bad backtracking: `**`, or a name with at most one `*`. */
function linearSegment(segment: string): boolean {
  return segment === '**' || (segment.match(/\*/g) ?? []).length <= 1;
}
