import { Box, Text } from 'ink';
import { Fragment, type ReactNode, useMemo } from 'react';
import { highlightCode, TOKEN_COLORS } from '../highlight/highlight';
import { useHighlighter } from '../highlight/use-highlighter';
import { useTheme } from '../look/use-theme';
import type { Block } from './markdown-blocks';

/**
 * A fenced code block: no border and no indent, so a mouse selection copies the code and nothing
 * else; the language as a dim label; highlighted once the grammars have loaded (never under
 * NO_COLOR), plain in the code colour until then or for a language they do not know.
 */
export function MarkdownCode({ block }: { block: Block & { kind: 'code' } }): ReactNode {
  const theme = useTheme();
  const ready = useHighlighter(!theme.noColor && block.lang !== '', block.lang);
  const lines = useMemo(
    () => (ready ? highlightCode(block.lang, block.text) : undefined),
    [ready, block.lang, block.text],
  );
  return (
    <Box flexDirection="column">
      {block.lang ? <Text dimColor>{block.lang}</Text> : null}
      {lines ? (
        <Text>
          {lines.map((segments, i) => (
            <Fragment key={i}>
              {i > 0 ? '\n' : ''}
              {segments.map((s, j) => (
                <Text key={j} color={s.token ? TOKEN_COLORS[s.token] : undefined}>
                  {s.text}
                </Text>
              ))}
            </Fragment>
          ))}
        </Text>
      ) : (
        <Text color={theme.code}>{block.text || ' '}</Text>
      )}
    </Box>
  );
}
