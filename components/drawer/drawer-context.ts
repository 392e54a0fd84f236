import { createContext, useContext } from 'react';
import type { KeyGate } from '../keys/use-keys';
import type { DrawerAction } from './drawer-state';

/** The drawer's one action channel and its key gate, for the forms and previews inside it. */
export type DrawerChannel = { dispatch: (action: DrawerAction) => void; gate: KeyGate };

export const DrawerContext = createContext<DrawerChannel>({ dispatch: () => {}, gate: () => true });

/** The drawer's channel: forms send decisions with `dispatch` and pass `gate` to their keys. */
export function useDrawer(): DrawerChannel {
  return useContext(DrawerContext);
}
