import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './preferencesSlice';

/**
 * The console's two themes. Dark is the default. Colours were picked for WCAG AA contrast:
 * text on background and on paper, and the button text on the primary colour, in both modes.
 */
const palettes = {
  dark: {
    mode: 'dark',
    primary: { main: '#8ab4ff', contrastText: '#0b1020' },
    secondary: { main: '#c4a7ff', contrastText: '#160b2b' },
    background: { default: '#0f1115', paper: '#171a21' },
    text: { primary: '#e8eaf0', secondary: '#a9afbd' },
    divider: 'rgba(232, 234, 240, 0.12)',
    success: { main: '#66d19e' },
    error: { main: '#ff8a80' },
    warning: { main: '#ffcc66' },
    info: { main: '#7cc4ff' },
  },
  light: {
    mode: 'light',
    primary: { main: '#2f4ac0', contrastText: '#ffffff' },
    secondary: { main: '#6a3fc4', contrastText: '#ffffff' },
    background: { default: '#f5f6fa', paper: '#ffffff' },
    text: { primary: '#161a22', secondary: '#434a5b' },
    divider: 'rgba(22, 26, 34, 0.12)',
    success: { main: '#1b7f4c' },
    error: { main: '#c62828' },
    warning: { main: '#9a5b00' },
    info: { main: '#0b62a4' },
  },
} as const;

export function createAppTheme(mode: ThemeMode): Theme {
  return createTheme({
    palette: palettes[mode],
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.375rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      // Links are underlined: inside text, colour alone does not tell them apart (WCAG 1.4.1).
      MuiLink: { defaultProps: { underline: 'always' } },
      MuiAlert: { styleOverrides: { root: { alignItems: 'center' } } },
    },
  });
}
