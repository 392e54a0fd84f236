import { Box, Text } from 'ink';
import type { ApprovalPreview } from '../../../src/protocol';
import { displayLine } from '../../../src/text/wrap';
import { CARD_KEYS, footerLine } from '../../keys/keymap';
import { ApprovalLines } from './ApprovalLines';
import type { PreviewLine } from './approval-lines';

/** The plan card's own keys line, from the keymap. */
const PLAN_HINT = footerLine([
  CARD_KEYS.approve,
  { ...CARD_KEYS.edit, ...CARD_KEYS.edit.byKind.plan },
  CARD_KEYS.reject,
]);

/** propose_plan: the title and numbered steps. The drawer's keys approve, edit (the step editor) and reject. */
export function PlanPreview(props: {
  preview: Extract<ApprovalPreview, { kind: 'plan' }>;
  lines: PreviewLine[];
  offset: number;
  width: number;
  height: number;
}) {
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Plan: {displayLine(props.preview.title || '(untitled)')}</Text>
        <Text dimColor> · {PLAN_HINT}</Text>
      </Text>
      <ApprovalLines
        lines={props.lines}
        offset={props.offset}
        width={props.width}
        height={props.height - 1}
      />
    </Box>
  );
}
