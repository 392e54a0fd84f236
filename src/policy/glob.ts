import { picomatchLib } from './picomatch-lib';
import { compileBoundedGlob } from './bounded-glob';

/**
 * Compiles gitignore-like patterns into one matcher over project-relative paths (with `/`):
 * `dir/` covers the folder and everything in it; a pattern without `/` matches at any depth.
 */
export function compileGlobs(patterns: readonly string[]): (relative: string) => string | undefined {
  const compiled = patterns.map((pattern) => {
    const expanded = expandPattern(pattern);
    return { pattern, test: boundedOr(expanded) };
  });
  return (relative) => compiled.find((c) => c.test(relative))?.pattern;
}

/**
 * Patterns come from config files too (a cloned project's `protectedPaths`): they run in linear
 * time (bounded-glob.ts), as picomatch's backtracking form of `**\/*a*a*a*b` can take minutes on
 * a long path. A form the bounded compiler refuses (an extglob; the loader drops those from files)
 * keeps picomatchLib().
 */
function boundedOr(forms: string[]): (relative: string) => boolean {
  const tests = forms.map((form) => {
    const bounded = compileBoundedGlob(form);
    return bounded.ok ? bounded.test : picomatchLib()(form, { dot: true });
  });
  return (relative) => tests.some((test) => test(relative));
}

function expandPattern(pattern: string): string[] {
  const anchored = pattern.startsWith('/');
  let body = anchored ? pattern.slice(1) : pattern;
  const isDir = body.endsWith('/');
  if (isDir) body = body.slice(0, -1);
  const forms = isDir ? [body, `${body}/**`] : [body];
  const hasSlash = body.includes('/');
  return anchored || hasSlash ? forms : forms.flatMap((f) => [f, `**/${f}`]);
}
