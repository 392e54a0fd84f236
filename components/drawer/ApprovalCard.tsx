import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { ApprovalRequest } from '../../src/protocol';
import { ApprovalDetails } from './ApprovalDetails';
import { ApprovalHelp } from './ApprovalHelp';
import { cardKind } from './card-kinds';
import type { CardGeometry, CardPreview } from './card-layout';
import type { CardState } from './drawer-state';
import { EditArgs } from './forms/EditArgs';
import { GrantChooser } from './forms/GrantChooser';
import { PlanStepsEditor } from './forms/PlanStepsEditor';
import { RejectReason } from './forms/RejectReason';
import { SaveRule } from './forms/SaveRule';
import { useDrawNow } from '../look/use-draw-now';
import { ApprovalPreview, CARD_VIEWS } from './preview/ApprovalPreview';

export type ApprovalCardProps = {
  request: ApprovalRequest;
  /** The card's state in the drawer's reducer: its mode, scroll and question cursor. */
  card: CardState;
  geometry: CardGeometry;
  preview: CardPreview;
  width: number;
  height: number;
  /** False while a decision for this request is on its way, or when the drawer has no focus. */
  isActive: boolean;
  /** The project's .warden files are not trusted: a rule saved there would be held back. */
  projectUntrusted?: boolean;
};

/**
 * One request: who asks, why, what, the risk and the rule, then the preview or the form the person
 * opened (grant scope, reject reason, argument or step editor, help). A view: the drawer owns the
 * state and the keys; forms send what they decide through the drawer's channel. Keyed by request
 * id in the drawer, so every form starts fresh on another request.
 */
export function ApprovalCard(props: ApprovalCardProps) {
  const { request, card, geometry, width, isActive } = props;
  // A new card is what the person waits for: its frame is drawn now, not at the end of Ink's window.
  useDrawNow(request.id);
  const kind = request.preview.kind;
  const height = geometry.bodyHeight;
  // Help takes the card's whole height: the details are back as soon as any key closes it.
  if (card.mode === 'help')
    return (
      <Box flexDirection="column" width={width} height={props.height} overflowY="hidden">
        <ApprovalHelp kind={kind} width={width} height={props.height} />
      </Box>
    );
  // A kind that is its own kind of card (an escalation) takes the whole height, no tool-call details above it.
  if (card.mode === 'keys' && CARD_VIEWS[kind].wholeCard)
    return (
      <Box flexDirection="column" width={width} height={props.height} overflowY="hidden">
        <ApprovalPreview
          request={request}
          preview={props.preview}
          card={card}
          width={width}
          height={props.height}
          isActive={isActive}
        />
      </Box>
    );
  let body: ReactNode;
  if (card.mode === 'grant') {
    body = <GrantChooser options={request.grantOptions} width={width} height={height} isActive={isActive} />;
  } else if (card.mode === 'save_rule') {
    body = (
      <SaveRule
        options={request.grantOptions}
        width={width}
        height={height}
        isActive={isActive}
        untrusted={props.projectUntrusted === true}
      />
    );
  } else if (card.mode === 'reject') {
    body = (
      <RejectReason
        width={width}
        isActive={isActive}
        subject={cardKind(request).rejectSubject ?? `this ${request.tool} call`}
      />
    );
  } else if (card.mode === 'edit') {
    body = <EditArgs request={request} width={width} height={height} isActive={isActive} />;
  } else if (card.mode === 'plan_edit' && request.preview.kind === 'plan') {
    body = (
      <PlanStepsEditor steps={request.preview.steps} width={width} height={height} isActive={isActive} />
    );
  } else {
    body = (
      <ApprovalPreview
        request={request}
        preview={props.preview}
        card={card}
        width={width}
        height={height}
        isActive={isActive}
      />
    );
  }
  return (
    // Clipped top and bottom only: each line is cut to the width already (see DiffView).
    <Box flexDirection="column" width={width} height={props.height} overflowY="hidden">
      <ApprovalDetails lines={geometry.lines.slice(0, geometry.detailRows)} width={width} />
      <Text dimColor>{'─'.repeat(Math.max(0, width))}</Text>
      {body}
    </Box>
  );
}
