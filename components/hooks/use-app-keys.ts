import { APP_KEYS, type AppAction, keyId, lookup } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';

/** What each app-wide key does; `Record` so a new row in APP_KEYS needs its handler here. */
export type AppKeyHandlers = Record<AppAction, () => void>;

/**
 * App-wide keys while no drawer or panel owns the keyboard, looked up in APP_KEYS: Esc cancels a
 * running turn (nothing when idle), Shift+Tab cycles the mode, Ctrl+T and Ctrl+G toggle the
 * sidebar and the sub-agent group.
 */
export function useAppKeys(handlers: AppKeyHandlers, options: { isActive: boolean; busy: boolean }): void {
  useKeys(
    (input, key) => {
      const action = lookup<AppAction>(APP_KEYS, keyId(input, key));
      if (action === 'cancel_turn' && !options.busy) return;
      if (action) handlers[action]();
    },
    { isActive: options.isActive },
  );
}
