import type { ApprovalRequest } from '../src/protocol';
import { ApprovalLines } from './ApprovalLines';
import { CommandPreview } from './CommandPreview';
import { DiffView } from './DiffView';
import type { CardPreview } from './hooks/use-card-preview';
import { PlanForm } from './PlanForm';
import { QuestionForm } from './QuestionForm';

export type PreviewHandlers = {
  onPlanSave: (steps: string[]) => void;
  onPlanCancelEdit: () => void;
  onAnswer: (text: string) => void;
  onDecline: () => void;
  onCancelTask: () => void;
  onQueue: (delta: 1 | -1) => void;
  onHelp: () => void;
  onInvalid: (input: string) => void;
};

/** What the call will do, by preview kind: diff, command, plan, question, or the raw arguments. */
export function ApprovalPreview(props: {
  request: ApprovalRequest;
  preview: CardPreview;
  width: number;
  height: number;
  /** Keys for the plan editor and the question form (tool cards take keys in the card). */
  isActive: boolean;
  planEditing: boolean;
  handlers: PreviewHandlers;
}) {
  const { request, preview, width, height, handlers } = props;
  const p = request.preview;
  const offset = preview.scroll.offset;
  if (p.kind === 'diff' && preview.model) {
    return <DiffView path={p.path} model={preview.model} layout={preview.layout} offset={offset} width={width} height={height} />;
  }
  if (p.kind === 'command') {
    return <CommandPreview preview={p} lines={preview.lines ?? []} offset={offset} width={width} height={height} />;
  }
  if (p.kind === 'plan') {
    return (
      <PlanForm
        preview={p}
        lines={preview.lines ?? []}
        offset={offset}
        width={width}
        height={height}
        editing={props.planEditing}
        isActive={props.isActive && props.planEditing}
        onSave={handlers.onPlanSave}
        onCancelEdit={handlers.onPlanCancelEdit}
      />
    );
  }
  if (p.kind === 'question') {
    return (
      <QuestionForm
        preview={p}
        width={width}
        height={height}
        isActive={props.isActive}
        onAnswer={handlers.onAnswer}
        onDecline={handlers.onDecline}
        onCancelTask={handlers.onCancelTask}
        onQueue={handlers.onQueue}
        onHelp={handlers.onHelp}
        onInvalid={handlers.onInvalid}
      />
    );
  }
  return <ApprovalLines lines={preview.lines ?? []} offset={offset} width={width} height={height} />;
}
