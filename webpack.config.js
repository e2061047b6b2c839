// Builds the web app (src/) into dist/web. `npm run dev` serves it with hot reload and proxies
// /api to the API server (API_URL, default http://127.0.0.1:3001).
//
// Production: hashed file names (the server sends them as immutable), no source maps (nothing in
// dist/web that is not meant for browsers), and every text asset written a second and a third time
// compressed, as `name.js.br` (brotli, quality 11) and `name.js.gz` (gzip, level 9), which the server
// sends as they are by the browser's Accept-Encoding (@fastify/static `preCompressed`): the best
// compression, paid once at build time instead of on every request.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * Material UI's CSS-theme-variables code, which the app's themes never use (src/app/theme.ts), is
 * replaced by src/app/muiWithoutCssVars.mjs. If a Material UI upgrade moves these files, the alias
 * stops matching and the bundle merely grows again (`npm run bench:bundle` shows it); if it changes
 * what they export, the build fails on the missing name.
 */
const MUI_STYLES = path.dirname(require.resolve('@mui/material/styles'));
const MUI_WITHOUT_CSS_VARS = {
  [path.join(MUI_STYLES, 'createThemeWithVars.mjs')]: path.resolve(__dirname, 'src/app/muiWithoutCssVars.mjs'),
  [path.join(MUI_STYLES, 'ThemeProviderWithVars.mjs')]: path.resolve(__dirname, 'src/app/muiWithoutCssVars.mjs'),
};

/** What is worth compressing: scripts, the page, styles, SVG, JSON, and the licence notes. */
const COMPRESSIBLE = /\.(js|html|css|svg|json|txt)$/;

function compressionPlugins() {
  const common = { test: COMPRESSIBLE, threshold: 0, minRatio: 0.9 };
  return [
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
    }),
  ];
}

/** What the production pages replace of the template (public/index.html, minified). */
const PREFERENCES_SCRIPT = '<script src="/preferences.js"></script>';
const EMPTY_ROOT = '<div id="root"><div class="boot" aria-hidden="true"></div></div>';

/**
 * public/preferences.js as an inline script: one round trip less before the first paint. Its
 * comment lines go; the server allows it by its hash (it hashes every inline script of the pages
 * it serves: server/src/lib/inlineScripts.ts).
 */
function inlinePreferencesScript() {
  const source = fs.readFileSync(path.join(__dirname, 'public/preferences.js'), 'utf8');
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*.*\*\/\s*$)/.test(line))
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
  return `<script>${code}</script>`;
}

/**
 * Runs scripts/prerender.tsx: the screens served already rendered (src/app/prerender.tsx,
 * `PRERENDERED_SCREENS`), `{ "login-en-dark.html": { head, root }, ... }`. Before the build, since
 * their file names are its pages' names.
 */
function prerenderScreens() {
  try {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'scripts/prerender.tsx')], {
      cwd: __dirname,
      // Production: React's production renderer, and Emotion's class names without the labels it
      // adds in development, so they are the ones the app's bundle makes.
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(stdout);
  } catch (error) {
    throw new Error(`prerendering the screens failed: ${error.message}\n${error.stderr ?? ''}`);
  }
}

/**
 * The production pages: the preferences script inline in every one, and `<screen>-<variant>.html`
 * (login-en-dark.html, signup-pt-light.html...), the app's page with a signed-out screen already
 * rendered in it in one language and theme, so that it paints before the app's JavaScript runs.
 * The server sends the visitor's for the screen's address (server/src/lib/webPages.ts) and
 * index.html for every other address of the app.
 */
/**
 * `<link rel="preload">` for every file the screen of a prerendered page needs (`signup-en-dark.html`:
 * the chunks of the `signup` import, the `common` and `auth` translations in English), so that they
 * download while the page is parsed. The app imports them once its entry chunk's steps are done
 * (src/app/startup.ts, `chunksPreloaded`), not as they arrive.
 */
function screenPreloads(compilation, outputName) {
  const [screen, language] = outputName.replace(/\.html$/, '').split('-');
  const group = compilation.namedChunkGroups.get(screen);
  if (!group) throw new Error(`${outputName}: no chunk named "${screen}" (src/app/pages.ts names each screen's import)`);
  const chunks = [...group.chunks];
  for (const namespace of ['common', 'auth']) {
    const name = `locale-${language}-${namespace}-json`;
    const chunk = [...compilation.chunks].find((candidate) => candidate.name === name);
    if (!chunk) throw new Error(`${outputName}: no chunk named "${name}" (src/app/locales.ts)`);
    chunks.push(chunk);
  }
  const files = chunks.flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')));
  // Low priority, as the entry chunk's deferred script has: the card paints from the page alone,
  // and no file here may hold the first paint up (nor count, in Lighthouse's model, as if it did).
  return files.map((file) => `<link rel="preload" as="script" href="/${file}" fetchpriority="low">`).join('');
}

class ProductionPagesPlugin {
  constructor(prerendered) {
    this.prerendered = prerendered;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ProductionPagesPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).beforeEmit.tapPromise('ProductionPagesPlugin', async (data) => {
        if (!data.html.includes(PREFERENCES_SCRIPT) || !data.html.includes(EMPTY_ROOT)) {
          throw new Error(`${data.outputName}: public/index.html no longer has the preferences script or the empty #root`);
        }
        const script = inlinePreferencesScript();
        const page = this.prerendered[data.outputName];
        if (!page) return { ...data, html: data.html.replace(PREFERENCES_SCRIPT, () => script) };
        // The styles go before the preferences script, which reads them.
        const html = data.html
          .replace(PREFERENCES_SCRIPT, () => `${screenPreloads(compilation, data.outputName)}${page.head}${script}`)
          .replace(EMPTY_ROOT, () => `<div id="root">${page.root}</div>`);
        return { ...data, html };
      });
    });
  }
}

module.exports = (_env = {}, argv = {}) => {
  const production = argv.mode === 'production';
  const prerendered = production ? prerenderScreens() : {};
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/index.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist/web'),
      filename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      publicPath: '/',
      clean: true,
      // The entry chunk's code at the script's top level, not in one function around all of it:
      // when a profiler is on (Lighthouse's trace, DevTools), V8 parses a function it runs again to
      // find its source positions, and that function was the whole 550 KB chunk, a long task of its
      // own before the app's first line ran (docs/web.md, "First load"). Its top-level names are
      // webpack's (`__webpack_require__`...); nothing else on the page declares globals.
      iife: false,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'], alias: MUI_WITHOUT_CSS_VARS },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: 'ts-loader', options: { transpileOnly: true, configFile: path.resolve(__dirname, 'tsconfig.json') } },
        },
        {
          // The app's modules do nothing on import but define things (the entry and app/startup.ts,
          // which act on import, are kept because the entry imports what they define). So an import
          // through a barrel (src/components/index.ts) brings only what it names, not every module
          // the barrel lists: the first screen does not download the form fields of every other.
          test: /\.tsx?$/,
          include: path.resolve(__dirname, 'src'),
          sideEffects: false,
        },
        {
          // Emotion imports it (CommonJS, no `sideEffects` flag) for withTheme, which nothing uses.
          test: /node_modules[\\/]hoist-non-react-statics[\\/]/,
          sideEffects: false,
        },
      ],
    },
    devtool: production ? false : 'eval-cheap-module-source-map',
    performance: { hints: false },
    optimization: {
      // Shared pieces of the lazy chunks from 40 KB up only (webpack's default is 20 KB): a screen
      // loads a few larger files rather than many small ones, which compress worse.
      splitChunks: { chunks: 'async', minSize: 40_000 },
    },
    plugins: [
      ...['index.html', ...Object.keys(prerendered)].map(
        (filename) =>
          new HtmlWebpackPlugin({
            filename,
            template: './public/index.html',
            favicon: './public/favicon.svg',
            // html-webpack-plugin's production defaults, plus its inline script and style minified.
            minify: production && {
              collapseWhitespace: true,
              keepClosingSlash: true,
              removeComments: true,
              removeRedundantAttributes: true,
              removeScriptTypeAttributes: true,
              removeStyleLinkTypeAttributes: true,
              useShortDoctype: true,
              minifyCSS: true,
              minifyJS: true,
            },
          }),
      ),
      ...(production ? [new ProductionPagesPlugin(prerendered)] : []),
      new CopyWebpackPlugin({
        // preferences.js is inlined into the pages in production; the development server serves it from public/.
        patterns: [
          {
            from: 'public',
            globOptions: { ignore: ['**/index.html', '**/favicon.svg', ...(production ? ['**/preferences.js'] : [])] },
            noErrorOnMissing: true,
          },
        ],
      }),
      ...(production ? compressionPlugins() : []),
    ],
    devServer: {
      port: Number(process.env.DEV_PORT || 8080),
      hot: true,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: process.env.API_URL || 'http://127.0.0.1:3001', changeOrigin: true }],
    },
  };
};
