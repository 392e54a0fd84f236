import { Box, Text } from 'ink';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { CoreClient, TurnChange, TurnReview } from '../../src/protocol';
import { truncateChars } from '../../src/text/truncate';
import { FoldedDiff } from '../drawer/preview/FoldedDiff';
import { oneLine } from '../look/format';
import { useTheme } from '../look/use-theme';
import { PANEL_FOOTERS, REVIEW_KEYS, type ReviewKeyAction } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { Panel } from '../widgets/Panel';
import { INITIAL_REVIEW, type ReviewState, reviewStep } from './review-state';

type Props = { client: CoreClient; review: TurnReview; width: number; maxRows: number; isActive: boolean };

const MARK: Record<TurnChange['kind'], string> = { created: '+', modified: '~', deleted: '−' };

/**
 * The turn review (the output gate): every file the turn changed — by any tool, commands included —
 * with the folded diff of the one under the cursor. Keep all, revert the selected files, or revert
 * the turn; a revert goes through the gate (a revert_all card) and the audit.
 */
export function TurnReviewCard({ client, review, width, maxRows, isActive }: Props): ReactNode {
  const theme = useTheme();
  const [state, setState] = useState<ReviewState>(INITIAL_REVIEW);
  const turn = useRef(review.turnId);
  useEffect(() => {
    if (turn.current !== review.turnId) setState(INITIAL_REVIEW);
    turn.current = review.turnId;
  }, [review.turnId]);
  const act = (action: ReviewKeyAction) => () => {
    const step = reviewStep(state, action, review.turnId, review.files);
    setState(step.state);
    if (step.send) client.send(step.send);
  };
  useKeyTable(
    REVIEW_KEYS,
    {
      up: act('up'),
      down: act('down'),
      toggle: act('toggle'),
      revert_selected: act('revert_selected'),
      revert_all: act('revert_all'),
      keep: act('keep'),
    },
    { isActive },
  );
  const files = review.files;
  const cursor = Math.min(state.cursor, Math.max(0, files.length - 1));
  const listRows = Math.max(1, Math.min(files.length, Math.floor((maxRows - 6) / 3), 8));
  const start = Math.min(Math.max(0, cursor - listRows + 1), Math.max(0, files.length - listRows));
  const here = files[cursor];
  const large = files.filter((f) => f.tooLarge || f.notRestorable).length;
  const inner = Math.max(10, width - 4);
  const diffRows = Math.max(3, maxRows - listRows - 6 - (large > 0 ? 1 : 0));
  return (
    <Panel
      title={`Review the turn: ${files.length} file(s) changed`}
      footer={PANEL_FOOTERS.review}
      width={width}
    >
      {files.slice(start, start + listRows).map((f, i) => {
        const at = start + i;
        const chosen = state.selected.includes(f.path);
        return (
          <Text key={f.path} wrap="truncate-end" inverse={at === cursor}>
            {/* The cursor is marked, not only inverse: a plain capture shows where it is too. */}
            {at === cursor ? '› ' : '  '}
            {chosen ? '[x] ' : '[ ] '}
            <Text color={f.kind === 'created' ? theme.ok : f.kind === 'deleted' ? theme.error : theme.warn}>
              {MARK[f.kind]} {f.kind.padEnd(8)}
            </Text>{' '}
            {truncateChars(oneLine(f.path), inner - 26)}
            {f.by === 'someone-else' ? (
              <Text dimColor> (changed by someone else, not this turn)</Text>
            ) : f.tooLarge || f.notRestorable ? (
              <Text color={theme.warn}> (not restorable)</Text>
            ) : f.changedSince ? (
              <Text color={theme.warn}> (changed since by someone else)</Text>
            ) : null}
          </Text>
        );
      })}
      {files.length > listRows ? <Text dimColor> {files.length} files; ↑/↓ for the rest</Text> : null}
      {large > 0 ? (
        <Text wrap="wrap" color={theme.warn}>
          {large} file(s) a revert cannot put back (over the size cap: listed, not copied; or left out of
          checkpoints).
        </Text>
      ) : null}
      <Box flexDirection="column">
        {here ? <Change change={here} width={inner} rows={diffRows} id={review.turnId} /> : null}
      </Box>
    </Panel>
  );
}

/** The file under the cursor: its folded diff, or why there is none. */
function Change({
  change,
  width,
  rows,
  id,
}: {
  change: TurnChange;
  width: number;
  rows: number;
  id: string;
}): ReactNode {
  if (change.tooLarge) return <Text dimColor>Over the size cap: its earlier content was not kept.</Text>;
  if (change.notRestorable) return <Text dimColor>Not restorable: {change.notRestorable}.</Text>;
  if (change.binary) return <Text dimColor>A binary file: no diff to show.</Text>;
  return (
    <FoldedDiff
      path={change.path}
      before={change.before ?? ''}
      after={change.after ?? ''}
      isNew={change.kind === 'created'}
      width={width}
      height={rows}
      cacheKey={`review:${id}:${change.path}`}
    />
  );
}
