import { CHORDS } from '../keymap';
import { useKeys } from './use-keys';

type Handlers = {
  onCancelTurn: () => void;
  onToggleSidebar: () => void;
  onToggleAgents: () => void;
  onCycleMode: () => void;
};

/**
 * App-wide keys while no drawer or panel owns the keyboard: Esc cancels a running turn,
 * Shift+Tab cycles the mode, Ctrl+T and Ctrl+G toggle the sidebar and the sub-agent group.
 */
export function useAppKeys(handlers: Handlers, options: { isActive: boolean; busy: boolean }): void {
  useKeys(
    (input, key) => {
      if (key.escape && options.busy) handlers.onCancelTurn();
      else if (key.tab && key.shift) handlers.onCycleMode();
      else if (key.ctrl && input === CHORDS.sidebar) handlers.onToggleSidebar();
      else if (key.ctrl && input === CHORDS.agents) handlers.onToggleAgents();
    },
    { isActive: options.isActive },
  );
}
