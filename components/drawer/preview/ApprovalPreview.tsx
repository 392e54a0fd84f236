import type { ReactNode } from 'react';
import type { ApprovalPreview as Preview, ApprovalRequest } from '../../../src/protocol';
import type { CardPreview } from '../card-layout';
import type { CardState } from '../drawer-state';
import { ApprovalLines } from './ApprovalLines';
import { CommandPreview } from './CommandPreview';
import { DiffView } from './DiffView';
import { EscalationForm } from './EscalationForm';
import { PlanPreview } from './PlanPreview';
import { QuestionForm } from './QuestionForm';

type Kind = Preview['kind'];

/** What a card kind's view is given: its preview, the request, the prepared body and the card's state. */
export type CardBodyProps<P> = {
  p: P;
  request: ApprovalRequest;
  preview: CardPreview;
  card: CardState;
  width: number;
  height: number;
  /** Keys for the card's own fields (the drawer takes every other key). */
  isActive: boolean;
};

/**
 * The view of each kind of card: its body, and whether it takes the card's whole height (no
 * tool-call details above it). The pure half of a kind is in card-kinds.ts.
 */
export const CARD_VIEWS: {
  [K in Kind]: { Body: (props: CardBodyProps<Extract<Preview, { kind: K }>>) => ReactNode; wholeCard?: true };
} = {
  diff: {
    Body: ({ p, preview, card, width, height }) =>
      preview.model && preview.folded ? (
        <DiffView
          path={p.path}
          model={preview.model}
          folded={preview.folded}
          layout={preview.layout}
          offset={preview.offset}
          width={width}
          height={height}
          change={preview.change}
          shift={preview.shift}
          unfolded={card.unfolded}
        />
      ) : (
        <Lines preview={preview} width={width} height={height} />
      ),
  },
  command: {
    Body: ({ p, preview, width, height }) => (
      <CommandPreview
        preview={p}
        lines={preview.lines ?? []}
        offset={preview.offset}
        width={width}
        height={height}
      />
    ),
  },
  plan: {
    Body: ({ p, preview, width, height }) => (
      <PlanPreview
        preview={p}
        lines={preview.lines ?? []}
        offset={preview.offset}
        width={width}
        height={height}
      />
    ),
  },
  question: {
    Body: ({ p, card, width, height, isActive }) => (
      <QuestionForm
        preview={p}
        option={card.option}
        typing={card.typing}
        width={width}
        height={height}
        isActive={isActive}
      />
    ),
  },
  // An escalation is its own kind of card: the agent's story, no tool-call details above it.
  escalation: {
    wholeCard: true,
    Body: ({ p, request, card, width, height, isActive }) => (
      <EscalationForm
        preview={p}
        request={request}
        typing={card.typing}
        width={width}
        height={height}
        isActive={isActive}
      />
    ),
  },
  json: { Body: ({ preview, width, height }) => <Lines preview={preview} width={width} height={height} /> },
};

function Lines(props: { preview: CardPreview; width: number; height: number }) {
  const { preview } = props;
  return (
    <ApprovalLines
      lines={preview.lines ?? []}
      offset={preview.offset}
      width={props.width}
      height={props.height}
    />
  );
}

/** What the call will do, by preview kind: diff, command, plan, question, escalation, or the raw arguments. */
export function ApprovalPreview(props: Omit<CardBodyProps<Preview>, 'p'>) {
  const view = CARD_VIEWS[props.request.preview.kind] as {
    Body: (props: CardBodyProps<Preview>) => ReactNode;
  };
  return <view.Body {...props} p={props.request.preview} />;
}
