// Builds the web app (src/) into dist/web. `npm run dev` serves it with hot reload and proxies
// /api to the API server (API_URL, default http://127.0.0.1:3001).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');

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
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: 'ts-loader', options: { transpileOnly: true, configFile: path.resolve(__dirname, 'tsconfig.json') } },
        },
      ],
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    performance: { hints: false },
    optimization: {
      splitChunks: { chunks: 'async' },
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg' }),
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html', '**/favicon.svg'] }, noErrorOnMissing: true }],
      }),
    ],
    devServer: {
      port: Number(process.env.DEV_PORT || 8080),
      hot: true,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: process.env.API_URL || 'http://127.0.0.1:3001', changeOrigin: true }],
    },
  };
};
