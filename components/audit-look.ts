import type { Theme } from './theme';

/** Color for an outcome or decision word; the word itself always carries the meaning. */
export function outcomeColor(result: string, theme: Theme): string | undefined {
  switch (result) {
    case 'executed':
    case 'allow':
      return theme.ok;
    case 'rejected':
    case 'blocked':
    case 'error':
    case 'deny':
      return theme.error;
    case 'timeout':
    case 'ask':
      return theme.warn;
    default:
      return undefined;
  }
}
