/**
 * What a person's edit changed, as a rewrite that could repeat: for each short
 * one-line string argument the model wrote and the person changed, the part taken out and the part
 * put in, with what both share around them removed. Paths compare by segments, so `/tmp/x` →
 * `src/x` and `/tmp/y` → `src/y` are one rewrite (`/tmp/` → `src/`); other text by characters.
 * Long or multi-line values (a file's content) are not preferences and are never compared.
 */
import { sanitizeText } from '../../text/sanitize';

/** One rewrite of one argument: `key` is equal for edits that changed the field the same way. */
export type EditShape = { key: string; tool: string; field: string; from: string; to: string };

const MAX_VALUE = 200;
const MAX_PART = 80;

/** The rewrites an edit made, one per changed short string field. Contract: pure, never throws. */
export function editShapes(
  tool: string,
  args: Record<string, unknown>,
  edited: Record<string, unknown>,
): EditShape[] {
  const shapes: EditShape[] = [];
  for (const [field, before] of Object.entries(args)) {
    const after = edited[field];
    if (typeof before !== 'string' || typeof after !== 'string' || before === after) continue;
    if (!short(before) || !short(after)) continue;
    const change =
      before.includes('/') || after.includes('/') ? bySegments(before, after) : byChars(before, after);
    if (!change || !change.from || change.from.length > MAX_PART || change.to.length > MAX_PART) continue;
    shapes.push({
      key: `${tool}\u0000${field}\u0000${change.from}\u0000${change.to}`,
      tool,
      field,
      from: change.from,
      to: change.to,
    });
  }
  return shapes;
}

const short = (value: string): boolean => value.length <= MAX_VALUE && !/[\r\n]/.test(value);

/** `/tmp/x` → `src/x`: drop the shared trailing segments; keep the separator on the changed side. */
function bySegments(before: string, after: string): { from: string; to: string } | undefined {
  const a = before.split('/');
  const b = after.split('/');
  let shared = 0;
  while (
    shared < a.length - 1 &&
    shared < b.length - 1 &&
    a[a.length - 1 - shared] === b[b.length - 1 - shared]
  )
    shared++;
  if (shared === 0) return byChars(before, after);
  const from = a.slice(0, a.length - shared).join('/');
  const to = b.slice(0, b.length - shared).join('/');
  return { from: from ? `${from}/` : '', to: to ? `${to}/` : '' };
}

/** The differing middle of two texts, their shared prefix and suffix removed. */
function byChars(before: string, after: string): { from: string; to: string } | undefined {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  return { from: before.slice(start, before.length - end), to: after.slice(start, after.length - end) };
}

/** Text safe inside one markdown code span on one line: visible controls, no backticks. */
export function codeSpan(text: string): string {
  return `\`${sanitizeText(text, 'exact').replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}

/** The preference line offered for a rewrite the person made `count` times. */
export function preferenceLine(shape: EditShape, count: number): string {
  const to = shape.to ? codeSpan(shape.to) : 'nothing';
  return `- In ${codeSpan(shape.tool)} calls, write ${to} where you would write ${codeSpan(shape.from)} in ${codeSpan(shape.field)} (the person corrected this ${count} times).`;
}
