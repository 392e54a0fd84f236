import type { Node } from 'web-tree-sitter';

// Small helpers over tree-sitter-bash syntax trees.

export const SUBSTITUTIONS: readonly string[] = ['command_substitution', 'process_substitution'];

/** A node's children without the nulls web-tree-sitter's types allow. */
export const childNodes = (node: Node): Node[] => node.children.filter((c): c is Node => c !== null);

/** The outermost `$(…)` / `<(…)` inside a node: nested ones are walked with their parent. */
export function substitutionsIn(node: Node): Node[] {
  return node
    .descendantsOfType([...SUBSTITUTIONS])
    .filter((found): found is Node => found !== null && !insideAnother(found, node));
}

function insideAnother(node: Node, top: Node): boolean {
  for (let p = node.parent; p && p.id !== top.id; p = p.parent) {
    if (SUBSTITUTIONS.includes(p.type)) return true;
  }
  return false;
}

/** One sentence saying where the parser gave up, for the approval card. */
export function describeParseError(root: Node, source: string): string {
  const bad = root.descendantsOfType('ERROR')[0] ?? findMissing(root);
  const at = bad ? bad.startIndex : 0;
  const near = source.slice(Math.max(0, at - 10), at + 20).replace(/\s+/g, ' ');
  const what = bad?.isMissing ? `a missing "${bad.type}"` : 'unreadable syntax';
  return `The shell parser found ${what} near "${near}" (position ${at}), so the command cannot be judged.`;
}

function findMissing(node: Node): Node | undefined {
  if (node.isMissing) return node;
  for (const child of childNodes(node)) {
    const found = child.hasError || child.isMissing ? findMissing(child) : undefined;
    if (found) return found;
  }
  return undefined;
}
