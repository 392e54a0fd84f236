import { APP_KEYS, keyId } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';

/**
 * Ctrl+T while a card or panel has the keyboard: the audit trail is most wanted while a
 * card asks. The drawer and panels leave Ctrl chords alone, so this one key reaches the sidebar;
 * the app-wide keys handle it the rest of the time (`isActive` is their opposite).
 */
export function useSidebarKey(toggle: () => void, isActive: boolean): void {
  useKeys(
    (input, key) => {
      if ((APP_KEYS.toggle_sidebar.keys as readonly string[]).includes(keyId(input, key))) toggle();
    },
    { isActive },
  );
}
