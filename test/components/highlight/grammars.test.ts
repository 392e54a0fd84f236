import { describe, expect, it } from 'vitest';
import { GRAMMAR_OF, GRAMMARS } from '../../../components/highlight/grammars';
import { highlightLine, languageFor, loadHighlighter } from '../../../components/highlight/highlight';

describe('grammars load one at a time, for the file at hand', () => {
  it('every extension names a grammar that can be loaded', () => {
    for (const name of Object.values(GRAMMAR_OF)) expect(GRAMMARS[name]).toBeTypeOf('function');
  });

  it("a Rust file loads Rust's grammar, not Go's; an unknown extension stays plain", async () => {
    expect(languageFor('src/main.go')).toBeUndefined();
    expect(await loadHighlighter('src/lib.rs')).toBe(true);
    expect(languageFor('other.rs')).toBe('rust');
    expect(languageFor('src/main.go')).toBeUndefined();
    expect(await loadHighlighter('notes.unknownext')).toBe(false);
    expect(await loadHighlighter(undefined)).toBe(false);
    const segments = highlightLine('rust', 'fn main() { let x = 1; }');
    expect(segments?.some((s) => s.token === 'keyword')).toBe(true);
  });

  it('a code block tag or a file name finds its grammar (py, Makefile)', async () => {
    expect(await loadHighlighter('py')).toBe(true);
    expect(languageFor('python')).toBe('python');
    expect(await loadHighlighter('Makefile')).toBe(true);
    expect(languageFor('sub/Makefile')).toBe('makefile');
  });
});
