#!/usr/bin/env node
// `npm start` and `npm run worker`: build what changed since the last build (scripts/build.js), then
// run the server (or, with --worker, the engine-only worker) in this same process, so signals reach
// it directly and its pid is this one.
const path = require('node:path');
const { build } = require('./build');

const worker = process.argv.includes('--worker');
build(worker ? ['server'] : ['web', 'server']);
require(path.resolve(__dirname, '..', 'server', 'dist', worker ? 'worker/main.js' : 'server.js')).run();
