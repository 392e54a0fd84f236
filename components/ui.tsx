/**
 * Everything the entry point (src/cli.tsx) takes from the UI, behind one import: the bundle then
 * loads the UI as one module instead of five (Ink, the app, two warm-ups and the code they share),
 * and each module costs the loader ~0.5 ms before the first frame (measured).
 */
import { type Instance, render } from 'ink';
import type { CoreClient } from '../src/protocol';
import { App } from './App';

export { scheduleWarmUp } from './warm-up';
export { scheduleMarkdownWarmUp } from './warm-up-markdown';

/** Draws the app; Ctrl+C is the app's own key (twice to quit), not Ink's. */
export function renderApp(client: CoreClient, openAtStart?: 'sessions'): Instance {
  return render(<App client={client} {...(openAtStart ? { openAtStart } : {})} />, { exitOnCtrlC: false });
}
