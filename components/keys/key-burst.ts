/**
 * Keys that arrive together. A terminal hands over what was typed since the last read as one
 * string, so `x` then `p` typed quickly reach a handler as "xp" — an unknown key, both lost. In a
 * list (the audit browser) each character is its own key; text fields keep their bursts (a paste).
 */
import type { Key } from 'ink';

/** A Key with nothing pressed: what a character of a burst is read as. */
export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** The keys in one read: each printable character of a burst on its own, anything else as it came. */
export function burstKeys(input: string, key: Key): [string, Key][] {
  const chars = [...input];
  const plain =
    chars.length > 1 &&
    !key.ctrl &&
    !key.meta &&
    !key.escape &&
    chars.every((c) => c >= ' ' && c !== '\u007f');
  return plain ? chars.map((c) => [c, { ...NO_KEY, shift: c !== c.toLowerCase() }]) : [[input, key]];
}
