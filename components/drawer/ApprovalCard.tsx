import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { ApprovalRequest } from '../src/protocol';
import { ApprovalDetails } from './ApprovalDetails';
import { ApprovalHelp } from './ApprovalHelp';
import { ApprovalPreview } from './ApprovalPreview';
import { approvalDetailLines, compactDetailLines, type DetailLine } from './approval-details';
import type { DiffLayout } from './diff-rows';
import { EditArgs } from './EditArgs';
import { GrantChooser } from './GrantChooser';
import { type CardCallbacks, useApprovalCard } from './hooks/use-approval-card';
import { useApprovalKeys } from './hooks/use-approval-keys';
import { externalEditField, useCardPreview } from './hooks/use-card-preview';
import { RejectReason } from './RejectReason';

export type ApprovalCardProps = {
  request: ApprovalRequest;
  width: number;
  height: number;
  /** False while a decision for this request is on its way, or when the drawer has no focus. */
  isActive: boolean;
  nowMs: number;
  parentName?: string;
  fullScreen: boolean;
  layout: DiffLayout;
  callbacks: CardCallbacks;
};

/**
 * One request: who asks, why, what, the risk and the rule, then the preview or the form the person
 * opened (grant scope, reject reason, argument editor, help). Keyed by request id in the drawer, so
 * every form and scroll position starts fresh on another request.
 */
export function ApprovalCard(props: ApprovalCardProps) {
  const { request, width, height, callbacks } = props;
  const kind = request.preview.kind;
  // Full details need room; short drawers and full screen keep what, risk and a refused edit.
  const full = approvalDetailLines(request, width, props.nowMs, props.parentName);
  const lines: DetailLine[] =
    props.fullScreen || full.length > height - 8 ? compactDetailLines(request, width) : full;
  const detailRows = Math.min(lines.length, Math.max(1, height - 4));
  const bodyHeight = Math.max(3, height - detailRows - 1);
  const preview = useCardPreview(request, width, bodyHeight, props.layout);
  const { mode, setMode, onAction } = useApprovalCard(request, callbacks, preview.scroll.move);
  const back = () => setMode('keys');
  const canExternalEdit = externalEditField(request) !== undefined;
  useApprovalKeys({
    isActive: props.isActive && mode === 'keys' && kind !== 'question',
    kind: kind === 'question' ? 'json' : kind,
    canExternalEdit,
    onAction,
  });
  const formActive = props.isActive;
  let body: ReactNode;
  if (mode === 'help') {
    body = <ApprovalHelp kind={kind} width={width} isActive={formActive} onClose={back} />;
  } else if (mode === 'grant') {
    body = (
      <GrantChooser
        options={request.grantOptions}
        width={width}
        height={bodyHeight}
        isActive={formActive}
        onConfirm={(scope) => callbacks.decide({ kind: 'approve_all', scope })}
        onBack={back}
      />
    );
  } else if (mode === 'reject') {
    body = (
      <RejectReason
        width={width}
        isActive={formActive}
        subject={kind === 'plan' ? 'the plan' : `this ${request.tool} call`}
        onSend={(reason) => callbacks.decide(reason === undefined ? { kind: 'reject' } : { kind: 'reject', reason })}
        onBack={back}
      />
    );
  } else if (mode === 'edit') {
    body = (
      <EditArgs
        args={request.args}
        width={width}
        height={bodyHeight}
        isActive={formActive}
        externalHint={canExternalEdit ? 'Esc then E: $EDITOR on the content' : undefined}
        onSave={(args) => {
          back();
          callbacks.decide({ kind: 'edit', args });
        }}
        onCancel={back}
      />
    );
  } else {
    body = (
      <ApprovalPreview
        request={request}
        preview={preview}
        width={width}
        height={bodyHeight}
        isActive={formActive && (mode === 'plan_edit' || kind === 'question')}
        planEditing={mode === 'plan_edit'}
        handlers={{
          onPlanSave: (steps) => {
            back();
            callbacks.decide({ kind: 'approve_plan', steps });
          },
          onPlanCancelEdit: back,
          onAnswer: (text) => callbacks.decide({ kind: 'answer', text }),
          onDecline: () => callbacks.decide({ kind: 'reject' }),
          onCancelTask: () => callbacks.decide({ kind: 'cancel_task' }),
          onQueue: callbacks.queue,
          onHelp: () => setMode('help'),
          onInvalid: callbacks.invalid,
        }}
      />
    );
  }
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <ApprovalDetails lines={lines.slice(0, detailRows)} width={width} />
      <Text dimColor>{'─'.repeat(Math.max(0, width))}</Text>
      {body}
    </Box>
  );
}
