import type { CoreClient } from '../src/protocol';
import { parseMarkdown } from './transcript/markdown-blocks';

/**
 * A little of every block and inline form the model writes. The lexer's regular expressions are
 * compiled (and tiered up) by V8 on first use, per expression: the first answer of a session paid
 * 40-60 ms for it, 150 ms under load, right before the answer reached the screen (profiled);
 * a one-word sample does not warm them, these do (the answer's own parse then costs < 1 ms). One
 * piece per turn of the event loop (~3-5 ms each, the first ~15 with the lexer's load): a key the
 * person types, or a given prompt's request on its way, waits for one piece, not for all of them.
 */
const PIECES = [
  '# Heading\n\nSome *text* with **bold**, ~~gone~~, `code` and a [link](https://example.com).',
  '- one *em* **strong** `code`\n- two [link](https://example.com)\n\n1. first ~~gone~~',
  '> a *quote*\n\nand after it',
  '```ts\nconst a = 1;\n```',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  'Setext\n---',
];

/**
 * Parses the pieces, one a turn of the event loop, starting a turn after it is called — while the
 * person types or the first turn waits for the model — and stops when the screen shows an answer
 * (the lexer is warm) or a card waits (the real card must not wait for it). `parsed` hears that every
 * piece was parsed. Returns a stop function.
 * Contract: never throws, never sends a command, never writes to the terminal.
 */
export function scheduleMarkdownWarmUp(client: CoreClient, parsed?: () => void): () => void {
  let handle: NodeJS.Immediate | undefined;
  const step = (index: number): void => {
    handle = undefined;
    const piece = PIECES[index];
    const state = client.snapshot();
    if (state.pending.length > 0 || state.transcript.some((e) => e.kind === 'assistant')) return;
    if (piece === undefined) return parsed?.();
    try {
      parseMarkdown(piece);
    } catch {
      // An optimisation: the real answer parses the same way and handles its own errors.
      return;
    }
    handle = setImmediate(() => step(index + 1));
  };
  handle = setImmediate(() => step(0));
  return () => {
    if (handle) clearImmediate(handle);
  };
}
