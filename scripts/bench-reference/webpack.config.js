// The reference page of `npm run bench:bundle` (see index.tsx), built as the console is: production
// webpack, ts-loader, terser, hashed file names, and .br/.gz files written beside every asset.
const path = require('node:path');
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');

module.exports = ({ outputPath }) => ({
  mode: 'production',
  context: __dirname,
  entry: { main: './index.tsx' },
  output: { path: outputPath, filename: 'assets/[name].[contenthash:12].js', publicPath: '/', clean: true },
  resolve: { extensions: ['.tsx', '.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        use: {
          loader: 'ts-loader',
          options: { transpileOnly: true, configFile: path.resolve(__dirname, '../../tsconfig.json') },
        },
      },
    ],
  },
  devtool: false,
  performance: { hints: false },
  plugins: [
    new HtmlWebpackPlugin({ template: './index.html' }),
    new CompressionPlugin({
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
      test: /\.(js|html)$/,
    }),
    new CompressionPlugin({
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
      test: /\.(js|html)$/,
    }),
  ],
});
