#!/usr/bin/env node
// Development: the API server on API_PORT (default 3001), restarted on change, and
// webpack-dev-server on DEV_PORT (default 8080) with hot reload, proxying /api to the API.
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const apiPort = process.env.API_PORT || '3001';
const children = [];

function run(name, command, args, env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    console.log(`[dev] ${name} exited (${signal || code}); stopping`);
    shutdown(code || 0);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run(
  'api',
  process.execPath,
  ['--watch-path=server/src', '--import', 'tsx', 'server/src/server.ts'],
  { PORT: apiPort, TSX_TSCONFIG_PATH: 'server/tsconfig.json', PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${process.env.DEV_PORT || 8080}` },
);
run('web', process.execPath, [require.resolve('webpack-cli/bin/cli.js'), 'serve', '--mode', 'development'], {
  API_URL: `http://127.0.0.1:${apiPort}`,
});
