/**
 * A markdown-lite parser for model output: fenced code, lists, headings, quotes and paragraphs.
 * It never fails: anything it does not recognise is a paragraph line, and an unclosed fence
 * (still streaming) is a code block up to the end.
 */
export type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'code'; lang: string; lines: string[] }
  | { kind: 'list'; items: { marker: string; text: string; depth: number }[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'rule' }
  | { kind: 'blank' };

const FENCE = /^\s*(```|~~~)\s*([\w+-]*)/;
const LIST = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;

export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const last = () => blocks[blocks.length - 1];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      const code: string[] = [];
      const closer = fence[1] ?? '```';
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(closer)) code.push(lines[i++] ?? '');
      blocks.push({ kind: 'code', lang: fence[2] ?? '', lines: code });
      continue;
    }
    if (line.trim() === '') {
      if (blocks.length > 0 && last()?.kind !== 'blank') blocks.push({ kind: 'blank' });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      continue;
    }
    const item = LIST.exec(line);
    if (item) {
      const entry = {
        depth: Math.floor((item[1]?.length ?? 0) / 2),
        marker: item[2] ?? '-',
        text: item[3] ?? '',
      };
      const prev = last();
      if (prev?.kind === 'list') prev.items.push(entry);
      else blocks.push({ kind: 'list', items: [entry] });
      continue;
    }
    const prev = last();
    if (line.startsWith('>')) {
      const quoted = line.replace(/^>\s?/, '');
      if (prev?.kind === 'quote') prev.lines.push(quoted);
      else blocks.push({ kind: 'quote', lines: [quoted] });
      continue;
    }
    // A continuation line indented under a list item belongs to that item.
    if (prev?.kind === 'list' && /^\s+/.test(line)) {
      const lastItem = prev.items[prev.items.length - 1];
      if (lastItem) lastItem.text += ` ${line.trim()}`;
      continue;
    }
    if (prev?.kind === 'paragraph') prev.lines.push(line);
    else blocks.push({ kind: 'paragraph', lines: [line] });
  }
  while (last()?.kind === 'blank') blocks.pop();
  return blocks;
}

export type Span = { kind: 'text' | 'code' | 'bold'; text: string };

/** Inline `code` and **bold**; unmatched markers stay literal text. */
export function parseInline(text: string): Span[] {
  const spans: Span[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) spans.push({ kind: 'text', text: text.slice(at, m.index) });
    spans.push(m[1] !== undefined ? { kind: 'code', text: m[1] } : { kind: 'bold', text: m[2] ?? '' });
    at = m.index + m[0].length;
  }
  if (at < text.length) spans.push({ kind: 'text', text: text.slice(at) });
  return spans;
}
