// Builds the web app (src/) into dist/web. `npm run dev` serves it with hot reload and proxies
// /api to the API server (API_URL, default http://127.0.0.1:3001).
//
// Production: hashed file names (the server sends them as immutable), no source maps (nothing in
// dist/web that is not meant for browsers), and every text asset written a second and a third time
// compressed, as `name.js.br` (brotli, quality 11) and `name.js.gz` (gzip, level 9), which the server
// sends as they are by the browser's Accept-Encoding (@fastify/static `preCompressed`): the best
// compression, paid once at build time instead of on every request.
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

module.exports = (_env = {}, argv = {}) => {
  const production = argv.mode === 'production';
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/index.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist/web'),
      filename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      publicPath: '/',
      clean: true,
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
      new HtmlWebpackPlugin({
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
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html', '**/favicon.svg'] }, noErrorOnMissing: true }],
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
