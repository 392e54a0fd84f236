/** `@path` completion in the prompt, pure: which mention the cursor ends in and what Tab makes of it. */

/** The `@mention` the text ends in: where its `@` is and what follows it. */
export type Mention = { at: number; prefix: string };

/** The `@token` the value ends in (at its start or after whitespace), if any. */
export function trailingMention(value: string): Mention | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(value);
  if (!m) return undefined;
  const prefix = m[1] ?? '';
  return { at: value.length - prefix.length - 1, prefix };
}

/** The longest common start of `items`. */
export function commonPrefix(items: readonly string[]): string {
  if (items.length === 0) return '';
  let out = items[0] ?? '';
  for (const item of items) while (!item.startsWith(out)) out = out.slice(0, -1);
  return out;
}

/**
 * What Tab does with the matches the core sent for `mention` in `value`: one match completes (a
 * file gets a space after it, a folder keeps its `/` so Tab goes on into it); several complete
 * their common start and are listed; none says so.
 */
export function applyCompletion(
  value: string,
  mention: Mention,
  matches: readonly string[],
): { value: string; list: string[]; none: boolean } {
  if (matches.length === 0) return { value, list: [], none: true };
  const only = matches.length === 1 ? matches[0] : undefined;
  const completed = only !== undefined ? (only.endsWith('/') ? only : `${only} `) : commonPrefix(matches);
  const next =
    completed.length > mention.prefix.length ? `${value.slice(0, mention.at)}@${completed}` : value;
  return { value: next, list: only !== undefined ? [] : [...matches], none: false };
}
