#!/usr/bin/env node
// Builds the web app and the API server, each only when its sources changed since its last build.
//
//   node scripts/build.js            build what changed (both parts)
//   node scripts/build.js --force    build both
//   node scripts/build.js server     only the server (what `npm run worker` needs)
//
// What changed is told by a fingerprint of every input file's path and contents (not times, which a
// checkout or a copy moves), kept beside the output as .build-fingerprint. A missing output, a
// changed source, lock file or build setting rebuilds that part; nothing else does, so a restart of an
// unchanged install starts at once. `npm start` and `npm run worker` call build(); scripts/start.js.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const FINGERPRINT = '.build-fingerprint';

/** Every file below `dir` (relative to root), skipping tests, in a stable order. */
function filesUnder(dir, skip) {
  const out = [];
  const walk = (current) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, current), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(relative);
      } else if (!skip.test(entry.name)) out.push(relative);
    }
  };
  walk(dir);
  return out;
}

const TESTS = /\.test\.tsx?$/;

const PARTS = {
  web: {
    output: 'dist/web',
    marker: 'dist/web/index.html',
    inputs: () => [
      ...filesUnder('src', TESTS),
      ...filesUnder('locales', TESTS),
      ...filesUnder('public', /^$/),
      'webpack.config.js',
      'scripts/prerender.tsx',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
    ],
    command: [process.execPath, [path.join(root, 'node_modules/webpack/bin/webpack.js'), '--mode', 'production']],
  },
  server: {
    output: 'server/dist',
    marker: 'server/dist/server.js',
    inputs: () => [
      ...filesUnder('server/src', TESTS),
      'server/tsconfig.json',
      'server/tsconfig.build.json',
      'package.json',
      'package-lock.json',
    ],
    command: [process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'server/tsconfig.build.json']],
  },
};

/** A hash of the part's input files: their paths and contents. */
function fingerprint(part) {
  const hash = crypto.createHash('sha256');
  for (const file of part.inputs()) {
    hash.update(file);
    hash.update('\0');
    try {
      hash.update(fs.readFileSync(path.join(root, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

function upToDate(part, print) {
  try {
    if (!fs.existsSync(path.join(root, part.marker))) return false;
    return fs.readFileSync(path.join(root, part.output, FINGERPRINT), 'utf8').trim() === print;
  } catch {
    return false;
  }
}

/** Builds `name` when it changed (or always, with force). Answers true when it built. Exits on failure. */
function buildPart(name, { force = false } = {}) {
  const part = PARTS[name];
  const print = fingerprint(part);
  if (!force && upToDate(part, print)) {
    console.log(`build: the ${name} is up to date`);
    return false;
  }
  const started = Date.now();
  console.log(`build: building the ${name}...`);
  // A fresh folder: files of deleted sources must not linger in the output.
  fs.rmSync(path.join(root, part.output), { recursive: true, force: true });
  const [command, args] = part.command;
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: the ${name} build failed`);
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(path.join(root, part.output, FINGERPRINT), `${print}\n`);
  console.log(`build: the ${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

function build(names = ['web', 'server'], options = {}) {
  for (const name of names) buildPart(name, options);
}

module.exports = { build, fingerprint: (name) => fingerprint(PARTS[name]) };

if (require.main === module) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const names = args.filter((arg) => arg in PARTS);
  build(names.length > 0 ? names : ['web', 'server'], { force });
}
