import type { ApprovalRequest } from '../../../src/protocol';
import type { CardPreview } from '../card-layout';
import type { CardState } from '../drawer-state';
import { ApprovalLines } from './ApprovalLines';
import { CommandPreview } from './CommandPreview';
import { DiffView } from './DiffView';
import { EscalationForm } from './EscalationForm';
import { PlanPreview } from './PlanPreview';
import { QuestionForm } from './QuestionForm';

/** What the call will do, by preview kind: diff, command, plan, question, or the raw arguments. */
export function ApprovalPreview(props: {
  request: ApprovalRequest;
  preview: CardPreview;
  card: CardState;
  width: number;
  height: number;
  /** Keys for the question's answer field (the drawer takes every other key). */
  isActive: boolean;
}) {
  const { request, preview, width, height } = props;
  const p = request.preview;
  const offset = preview.offset;
  if (p.kind === 'diff' && preview.model && preview.folded) {
    return (
      <DiffView
        path={p.path}
        model={preview.model}
        folded={preview.folded}
        layout={preview.layout}
        offset={offset}
        width={width}
        height={height}
        change={preview.change}
        shift={preview.shift}
        unfolded={props.card.unfolded}
      />
    );
  }
  if (p.kind === 'command') {
    return (
      <CommandPreview preview={p} lines={preview.lines ?? []} offset={offset} width={width} height={height} />
    );
  }
  if (p.kind === 'plan') {
    return (
      <PlanPreview preview={p} lines={preview.lines ?? []} offset={offset} width={width} height={height} />
    );
  }
  if (p.kind === 'question') {
    return (
      <QuestionForm
        preview={p}
        option={props.card.option}
        typing={props.card.typing}
        width={width}
        height={height}
        isActive={props.isActive}
      />
    );
  }
  if (p.kind === 'escalation') {
    return (
      <EscalationForm
        preview={p}
        request={request}
        typing={props.card.typing}
        width={width}
        height={height}
        isActive={props.isActive}
      />
    );
  }
  return <ApprovalLines lines={preview.lines ?? []} offset={offset} width={width} height={height} />;
}
