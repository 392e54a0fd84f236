import { useContext } from 'react';
import { type Theme, ThemeContext } from './theme';

/** The theme App provides (colors, or none under NO_COLOR). */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
