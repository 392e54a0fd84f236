import { Box, Text } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import { useTheme } from '../look/use-theme';
import { type Block, type ListItem, parseMarkdown, type Run } from './markdown-blocks';
import { layoutTable } from './markdown-table';
import { MarkdownCode } from './MarkdownCode';

/** Inline runs: bold, italic, strike-through, `code` in the code colour, a link's target dim after it. */
function Runs({ runs }: { runs: readonly Run[] }): ReactNode {
  const theme = useTheme();
  return runs.map((run, i) => {
    const key = `${i}`;
    if (run.href !== undefined)
      return (
        <Text key={key} dimColor>
          {run.text}
        </Text>
      );
    // Without colour the backticks are the only cue that this is code, so keep them.
    const text = run.code && theme.noColor ? `\`${run.text}\`` : run.text;
    return (
      <Text
        key={key}
        bold={run.bold}
        italic={run.italic}
        strikethrough={run.strike}
        color={run.code ? theme.code : undefined}
      >
        {text}
      </Text>
    );
  });
}

function ListView(props: { items: readonly ListItem[]; depth: number; width: number }): ReactNode {
  const { items, depth, width } = props;
  const markerWidth = Math.max(...items.map((item) => item.marker.length)) + 1;
  return (
    <Box flexDirection="column">
      {items.map((item, i) => (
        <Box key={i}>
          <Box width={markerWidth} flexShrink={0}>
            <Text>{item.marker === '•' ? (depth % 2 === 0 ? '•' : '◦') : item.marker}</Text>
          </Box>
          <Box flexDirection="column" flexShrink={1}>
            <Blocks blocks={item.blocks} width={width - markerWidth} gap={false} depth={depth + 1} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function TableView({ block, width }: { block: Block & { kind: 'table' }; width: number }): ReactNode {
  const table = layoutTable(block.header, block.rows, block.align, width);
  return (
    <Box flexDirection="column">
      <Text bold>{table.header.join('\n')}</Text>
      <Text dimColor>{table.rule}</Text>
      {table.rows.length > 0 ? <Text>{table.rows.flat().join('\n')}</Text> : null}
    </Box>
  );
}

function BlockView({ block, width, depth }: { block: Block; width: number; depth: number }): ReactNode {
  switch (block.kind) {
    case 'paragraph':
      return (
        <Text>
          <Runs runs={block.runs} />
        </Text>
      );
    case 'heading':
      return (
        <Text bold underline={block.level <= 2}>
          <Runs runs={block.runs} />
        </Text>
      );
    case 'rule':
      return <Text dimColor>{'─'.repeat(Math.max(8, Math.min(40, width)))}</Text>;
    case 'quote':
      // Ink draws the bar as a border: one column for every row of the quote, however it wraps.
      return (
        <Box borderStyle="bold" borderTop={false} borderRight={false} borderBottom={false} borderDimColor>
          <Box flexDirection="column" paddingLeft={1} flexShrink={1}>
            <Blocks blocks={block.blocks} width={Math.max(10, width - 2)} gap depth={depth} />
          </Box>
        </Box>
      );
    case 'list':
      return <ListView items={block.items} depth={depth} width={width} />;
    case 'table':
      return <TableView block={block} width={width} />;
    case 'code':
      return <MarkdownCode block={block} />;
  }
}

function Blocks(props: { blocks: readonly Block[]; width: number; gap: boolean; depth: number }): ReactNode {
  const { blocks, width, gap, depth } = props;
  return blocks.map((block, i) => (
    <Box key={i} marginTop={gap && i > 0 ? 1 : 0} flexDirection="column">
      <BlockView block={block} width={Math.max(10, width)} depth={depth} />
    </Box>
  ));
}

/**
 * Model text rendered from `marked`'s tokens: headings, emphasis, code, links with their target,
 * quotes, nested lists, tables that fit `width`, borderless code blocks. Memoised by text and width.
 */
export const Markdown = memo(function Markdown({
  text,
  width = 80,
}: {
  text: string;
  width?: number;
}): ReactNode {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <Box flexDirection="column">
      <Blocks blocks={blocks} width={width} gap depth={0} />
    </Box>
  );
});
