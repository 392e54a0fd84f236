import picomatch from 'picomatch';

/**
 * Compiles gitignore-like patterns into one matcher over project-relative paths (with `/`):
 * `dir/` covers the folder and everything in it; a pattern without `/` matches at any depth.
 */
export function compileGlobs(patterns: readonly string[]): (relative: string) => string | undefined {
  const compiled = patterns.map((pattern) => {
    const expanded = expandPattern(pattern);
    return { pattern, test: picomatch(expanded, { dot: true }) };
  });
  return (relative) => compiled.find((c) => c.test(relative))?.pattern;
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
