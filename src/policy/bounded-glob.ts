import { type CompiledPattern, type PatternTest, compileBoundedRegex } from './bounded-regex';

/**
 * Globs from policy and config files, matched in linear time. picomatch turns a glob into a
 * backtracking regular expression: `**\/*a*a*a*b` against a long path, or an extglob such as
 * `+(+(a))`, takes seconds to years. Here a glob becomes an RE2 expression (or, for the common
 * shapes, a plain string test) with picomatch's meaning for the syntax policy files use:
 * `*` (within a segment), `?`, `**` (whole segments), `[abc]`, `[!abc]`, `{a,b}` and `\` escapes.
 * Extglobs and a leading `!` are refused: they have no linear form, or would read as "not".
 */
export function compileBoundedGlob(glob: string): CompiledPattern {
  const problem = globProblem(glob);
  if (problem) return { ok: false, error: problem };
  const fast = fastPath(glob);
  if (fast) return { ok: true, test: guard(glob, fast) };
  const compiled = compileBoundedRegex(`^(?:${globToRegexSource(glob)})$`);
  return compiled.ok ? { ok: true, test: guard(glob, compiled.test) } : compiled;
}

/** Why a glob cannot be used, or undefined. Contract: never throws. */
export function globProblem(glob: string): string | undefined {
  if (glob.startsWith('!'))
    return 'a leading "!" (negation) is not supported; write a deny or ask rule instead';
  if (/[?*+@!]\(/.test(glob))
    return 'extglob patterns such as +(…) or @(…) are not supported; use {a,b} instead';
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return 'a "}" without its "{"';
    else if (c === '/' && depth > 0) return 'a "/" inside {…} is not supported; write two rules';
  }
  if (inClass) return 'a "[" without its "]"';
  if (depth !== 0) return 'a "{" without its "}"';
  return undefined;
}

/** Like picomatch: an empty input never matches, and a wildcard never matches a `.` or `..` segment. */
function guard(glob: string, test: PatternTest): PatternTest {
  return (input) => {
    if (input === '') return false;
    if (input === glob) return true;
    if (/(?:^|\/)\.\.?(?:\/|$)/.test(input)) return false;
    return test(input);
  };
}

const GLOB_CHARS = /[*?[\]{}\\]/;

/** Plain string tests for `*`, `name*`, `*.ext`, `dir/**` and `**\/name` (the shapes most rules use). */
function fastPath(glob: string): PatternTest | undefined {
  if (!GLOB_CHARS.test(glob)) return (s) => s === glob;
  if (glob === '*') return (s) => !s.includes('/');
  if (glob === '**') return () => true;
  const body = (from: number, to?: number) => glob.slice(from, to);
  if (glob.endsWith('*') && !glob.endsWith('**') && !GLOB_CHARS.test(body(0, -1))) {
    const prefix = body(0, -1);
    return (s) => s.startsWith(prefix) && !s.slice(prefix.length).includes('/');
  }
  if (glob.startsWith('*') && !glob.startsWith('**') && !GLOB_CHARS.test(body(1)) && !glob.includes('/')) {
    const suffix = body(1);
    return (s) => s.endsWith(suffix) && !s.includes('/');
  }
  if (glob.endsWith('/**') && !GLOB_CHARS.test(body(0, -3))) {
    const dir = body(0, -3);
    return (s) => s === dir || s.startsWith(`${dir}/`);
  }
  if (glob.startsWith('**/') && !GLOB_CHARS.test(body(3))) {
    const name = body(3);
    return (s) => s === name || s.endsWith(`/${name}`);
  }
  if (glob.startsWith('**/') && glob.endsWith('/**') && glob.length > 6 && !GLOB_CHARS.test(body(3, -3))) {
    const name = body(3, -3);
    return (s) => s === name || s.startsWith(`${name}/`) || s.endsWith(`/${name}`) || s.includes(`/${name}/`);
  }
  if (
    glob.startsWith('**/') &&
    glob.endsWith('*') &&
    !glob.endsWith('**') &&
    !GLOB_CHARS.test(body(3, -1)) &&
    !body(3).includes('/')
  ) {
    const prefix = body(3, -1);
    return (s) => {
      const name = s.slice(s.lastIndexOf('/') + 1);
      return name.startsWith(prefix);
    };
  }
  return undefined;
}

/** The glob as an RE2 expression body (unanchored). Assumes `globProblem` found nothing. */
export function globToRegexSource(glob: string): string {
  const segments = glob.split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const first = i === 0;
    const last = i === segments.length - 1;
    if (segment === '**') {
      // Zero or more whole segments: `**/x` matches `x`; `a/**` matches `a`; `a/**/b` matches `a/b`.
      if (segments.length === 1) out.push('.*');
      else if (first) out.push('(?:.*/)?');
      else out.push(last ? '(?:/.*)?' : '(?:/.*)?/');
      continue;
    }
    const previousWasStar = i > 0 && segments[i - 1] === '**';
    if (!first && !previousWasStar) out.push('/');
    out.push(segmentSource(segment));
  }
  return out.join('');
}

function segmentSource(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '\\') {
      out += escape(segment[++i] ?? '\\');
    } else if (c === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = classEnd(segment, i);
      out += classSource(segment.slice(i + 1, end));
      i = end;
    } else if (c === '{') {
      const end = braceEnd(segment, i);
      out += `(?:${splitTopLevel(segment.slice(i + 1, end))
        .map(segmentSource)
        .join('|')})`;
      i = end;
    } else {
      out += escape(c);
    }
  }
  return out;
}

function classEnd(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ']' && i > open + 1) return i;
  }
  return s.length - 1;
}

function classSource(inner: string): string {
  const negated = inner.startsWith('!') || inner.startsWith('^');
  const body = (negated ? inner.slice(1) : inner)
    .replace(/\\(.)/g, (_, ch: string) => `\\x{${ch.codePointAt(0)?.toString(16)}}`)
    .replace(/[[\]]/g, '\\$&');
  return negated ? `[^/${body}]` : `[${body}]`;
}

function braceEnd(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return s.length - 1;
}

/** `a,{b,c},d` → `a`, `{b,c}`, `d`. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function escape(c: string): string {
  return /[\\^$.|?*+()[\]{}/-]/.test(c) ? `\\${c}` : c;
}
