import { Box, Text } from 'ink';
import type { ApprovalPreview } from '../src/protocol';
import { ApprovalLines } from './ApprovalLines';
import { PlanStepsEditor } from './PlanStepsEditor';
import type { PreviewLine } from './approval-lines';
import { displayLine } from './approval-text';

/**
 * propose_plan: the title and numbered steps, or the step editor. The card's keys approve (y),
 * open the editor (e) and reject with a reason (n); the editor saves with the edited steps.
 */
export function PlanForm(props: {
  preview: Extract<ApprovalPreview, { kind: 'plan' }>;
  lines: PreviewLine[];
  offset: number;
  width: number;
  height: number;
  editing: boolean;
  isActive: boolean;
  onSave: (steps: string[]) => void;
  onCancelEdit: () => void;
}) {
  if (props.editing) {
    return (
      <PlanStepsEditor
        steps={props.preview.steps}
        width={props.width}
        height={props.height}
        isActive={props.isActive}
        onSave={props.onSave}
        onCancel={props.onCancelEdit}
      />
    );
  }
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Plan: {displayLine(props.preview.title || '(untitled)')}</Text>
        <Text dimColor> · y approve · e edit steps · n reject</Text>
      </Text>
      <ApprovalLines lines={props.lines} offset={props.offset} width={props.width} height={props.height - 1} />
    </Box>
  );
}
