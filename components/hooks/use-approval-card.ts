import { useEffect, useState } from 'react';
import type { ApprovalRequest, Decision } from '../../src/protocol';
import type { ExternalEditResult } from './use-external-editor';
import type { ApprovalKeyAction } from './use-approval-keys';
import type { ScrollMove } from './use-approval-scroll';
import { externalEditField } from './use-card-preview';

/** What owns the card's keys: its key map, or one of its forms. */
export type CardMode = 'keys' | 'grant' | 'reject' | 'edit' | 'plan_edit' | 'help';

/** What a card asks of the drawer. */
export type CardCallbacks = {
  /** Sends the decision once; the drawer locks the card until the request leaves `pending`. */
  decide: (decision: Decision) => void;
  /** An unknown key: show the hint and report it to the core. */
  invalid: (input: string) => void;
  queue: (delta: 1 | -1) => void;
  toggleFullScreen: () => void;
  toggleLayout: () => void;
  /** A short message in the footer (e.g. the editor exited without changes). */
  notice: (text: string) => void;
  externalEdit: (content: string, fileName: string) => ExternalEditResult;
  /** Esc: cancel the running turn. */
  cancelTurn: () => void;
  /** The card opened or closed a form, so the footer can say how to get back. */
  modeChanged: (mode: CardMode) => void;
};

/** The card's mode and what each key-map action does to it or sends to the core. */
export function useApprovalCard(
  request: ApprovalRequest,
  callbacks: CardCallbacks,
  scroll: (move: ScrollMove) => void,
): { mode: CardMode; setMode: (mode: CardMode) => void; onAction: (action: ApprovalKeyAction) => void } {
  const [mode, setModeState] = useState<CardMode>('keys');
  const setMode = (next: CardMode) => {
    setModeState(next);
    callbacks.modeChanged(next);
  };
  // A card mounts in its key map; say so, in case the drawer still remembers an older form.
  // Once per card: the callbacks object is new on every drawer render.
  useEffect(() => callbacks.modeChanged('keys'), []);
  const p = request.preview;
  const openExternalEditor = () => {
    const field = externalEditField(request);
    if (p.kind !== 'diff' || !field) return callbacks.notice('$EDITOR is offered only for file writes');
    const result = callbacks.externalEdit(p.after, p.path);
    if (result.kind === 'failed') return callbacks.notice(`editor failed: ${result.message}`);
    if (result.kind === 'unchanged') return callbacks.notice('editor closed without changes; nothing sent');
    callbacks.decide({ kind: 'edit', args: { ...(request.args as Record<string, unknown>), [field]: result.content } });
  };
  const onAction = (action: ApprovalKeyAction) => {
    switch (action.kind) {
      case 'approve':
        return callbacks.decide(p.kind === 'plan' ? { kind: 'approve_plan', steps: p.steps } : { kind: 'approve' });
      case 'approve_all':
        return setMode('grant');
      case 'reject':
        return setMode('reject');
      case 'skip':
        return callbacks.decide({ kind: 'skip' });
      case 'edit':
        return setMode(p.kind === 'plan' ? 'plan_edit' : 'edit');
      case 'external_edit':
        return openExternalEditor();
      case 'cancel_task':
        return callbacks.decide({ kind: 'cancel_task' });
      case 'cancel_turn':
        return callbacks.cancelTurn();
      case 'help':
        return setMode('help');
      case 'queue':
        return callbacks.queue(action.delta);
      case 'scroll':
        return scroll(action.move);
      case 'toggle_layout':
        return callbacks.toggleLayout();
      case 'toggle_full_screen':
        return callbacks.toggleFullScreen();
      case 'invalid':
        return callbacks.invalid(action.input);
      case 'none':
        return undefined;
    }
  };
  return { mode, setMode, onAction };
}
