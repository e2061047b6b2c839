// Stands in for Material UI's CSS-theme-variables modules (createThemeWithVars, ThemeProviderWithVars)
// in the web build: webpack.config.js points their files here. The console's themes are plain
// palettes (theme.ts: no `cssVariables`, no `colorSchemes`), for which MUI never calls them, yet its
// createTheme and ThemeProvider import them: about 70 KB of code (7 KB gzip) on every first load.
// Anything that does reach them fails loudly, saying why.
const leftOut = (name) => () => {
  throw new Error(`${name}: Material UI's CSS theme variables are left out of this build (see webpack.config.js)`);
};

export default leftOut('createThemeWithVars');
export const createGetCssVar = leftOut('createGetCssVar');
export const CssVarsProvider = leftOut('CssVarsProvider');
export const useColorScheme = leftOut('useColorScheme');
export const getInitColorSchemeScript = leftOut('getInitColorSchemeScript');
export const Experimental_CssVarsProvider = leftOut('Experimental_CssVarsProvider');
