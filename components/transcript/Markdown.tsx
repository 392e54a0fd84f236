import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useTheme } from '../hooks/use-theme';
import { type Block, parseBlocks, parseInline } from './markdown-blocks';

/** Inline spans of one line: `code` in the code color (or backticks kept without color), **bold**. */
function Inline({ text }: { text: string }): ReactNode {
  const theme = useTheme();
  return parseInline(text).map((span, i) => {
    const key = `${i}:${span.kind}`;
    if (span.kind === 'bold')
      return (
        <Text key={key} bold>
          {span.text}
        </Text>
      );
    if (span.kind === 'code') {
      // Without color the backticks are the only cue that this is code, so keep them.
      return (
        <Text key={key} color={theme.code}>
          {theme.noColor ? `\`${span.text}\`` : span.text}
        </Text>
      );
    }
    return <Text key={key}>{span.text}</Text>;
  });
}

function BlockView({ block }: { block: Block }): ReactNode {
  const theme = useTheme();
  switch (block.kind) {
    case 'blank':
      return <Text> </Text>;
    case 'rule':
      return <Text dimColor>────────</Text>;
    case 'heading':
      return (
        <Text bold underline={block.level <= 2}>
          <Inline text={block.text} />
        </Text>
      );
    case 'paragraph':
      return (
        <Text>
          <Inline text={block.lines.join('\n')} />
        </Text>
      );
    case 'quote':
      return (
        <Box flexDirection="column">
          {block.lines.map((line, i) => (
            <Text key={i} dimColor>
              │ {line}
            </Text>
          ))}
        </Box>
      );
    case 'list':
      return (
        <Box flexDirection="column">
          {block.items.map((item, i) => (
            <Box key={i} paddingLeft={item.depth * 2}>
              <Text>{/^\d/.test(item.marker) ? `${item.marker} ` : '• '}</Text>
              <Box flexShrink={1}>
                <Text>
                  <Inline text={item.text} />
                </Text>
              </Box>
            </Box>
          ))}
        </Box>
      );
    case 'code':
      return (
        <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1}>
          {block.lang ? <Text dimColor>{block.lang}</Text> : null}
          <Text>{block.lines.join('\n') || ' '}</Text>
        </Box>
      );
  }
}

/** Model text rendered readably: fenced code boxed, lists bulleted with hanging indent. */
export function Markdown({ text }: { text: string }): ReactNode {
  const blocks = parseBlocks(text);
  return (
    <Box flexDirection="column">
      {blocks.map((block, i) => (
        <BlockView key={i} block={block} />
      ))}
    </Box>
  );
}
