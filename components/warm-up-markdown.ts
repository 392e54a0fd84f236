import type { CoreClient } from '../src/protocol';
import { parseMarkdown } from './transcript/markdown-blocks';

/**
 * A little of every block and inline form the model writes. The lexer's regular expressions are
 * compiled (and tiered up) by V8 on first use, per expression: the first answer of a session paid
 * 40-60 ms for it, 150 ms under load, right before the answer reached the screen (profiled, issue 16);
 * a one-word sample does not warm them, this one does (the answer's own parse then costs < 1 ms).
 */
const SAMPLE = [
  '# Heading',
  '',
  'Some *text* with **bold**, ~~gone~~, `code` and a [link](https://example.com).',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '',
  '> a quote',
  '',
  '```ts',
  'const a = 1;',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'Setext',
  '---',
].join('\n');

/**
 * Parses the sample once, a turn of the event loop after it is called — while the first turn waits
 * for the model — unless the screen already shows an answer (the lexer is warm) or a card waits
 * (the real card must not wait for it). Returns a stop function.
 * Contract: never throws, never sends a command, never writes to the terminal.
 */
export function scheduleMarkdownWarmUp(client: CoreClient, parsed?: () => void): () => void {
  const handle = setImmediate(() => {
    const state = client.snapshot();
    if (state.pending.length > 0 || state.transcript.some((e) => e.kind === 'assistant')) return;
    try {
      parseMarkdown(SAMPLE);
      parsed?.();
    } catch {
      // An optimisation: the real answer parses the same way and handles its own errors.
    }
  });
  return () => clearImmediate(handle);
}
