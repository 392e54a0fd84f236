import { createContext } from 'react';

/**
 * Colors for the UI, or none at all. Every meaning shown with a color is also shown with a glyph
 * or a word, so a NO_COLOR terminal loses nothing but decoration.
 */
export type Theme = {
  noColor: boolean;
  accent: string | undefined;
  user: string | undefined;
  ok: string | undefined;
  warn: string | undefined;
  error: string | undefined;
  info: string | undefined;
  code: string | undefined;
  border: string | undefined;
};

const COLORS: Omit<Theme, 'noColor'> = {
  accent: 'cyan',
  user: 'blue',
  ok: 'green',
  warn: 'yellow',
  error: 'red',
  info: 'cyan',
  code: 'magenta',
  border: 'gray',
};

/** NO_COLOR (https://no-color.org): present and non-empty disables color. */
export function makeTheme(env: Record<string, string | undefined> = process.env): Theme {
  const noColor = (env.NO_COLOR ?? '') !== '';
  if (!noColor) return { noColor, ...COLORS };
  return {
    noColor,
    accent: undefined,
    user: undefined,
    ok: undefined,
    warn: undefined,
    error: undefined,
    info: undefined,
    code: undefined,
    border: undefined,
  };
}

export const ThemeContext = createContext<Theme>(makeTheme());
