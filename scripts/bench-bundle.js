#!/usr/bin/env node
/**
 * Bundle budget of the web app. Builds it in production mode with the project's
 * webpack.config.js (into dist/web, as `npm run build:web` does), then prints the gzip size
 * (zlib level 6) of:
 *   - the JavaScript the /login route loads: the entry's initial chunks, plus the lazy chunks the
 *     login screen needs (none today: LoginPage is part of the entry);
 *   - each lazily loaded chunk group (features, layout, other auth screens), counting only the
 *     files it adds on top of the entry.
 * /login is checked against a 250 KB budget (PASS/FAIL). Exits 0 either way; 1 if the build fails.
 *
 *   node scripts/bench-bundle.js            # table
 *   node scripts/bench-bundle.js --json     # machine-readable
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const webpack = require('webpack');

const ROOT = path.resolve(__dirname, '..');
const BUDGET_KB = 250;
const ENTRY = 'main';
/** Lazy chunk groups the /login route needs besides the entry (by webpackChunkName). */
const LOGIN_LAZY_GROUPS = ['login'];

const KB = 1024;
const asJson = process.argv.includes('--json');

function build() {
  const makeConfig = require(path.join(ROOT, 'webpack.config.js'));
  const config = typeof makeConfig === 'function' ? makeConfig({}, { mode: 'production' }) : makeConfig;
  config.mode = 'production';
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (stats.hasErrors()) {
        const info = stats.toJson({ all: false, errors: true });
        return reject(new Error(info.errors.map((e) => e.message).join('\n\n')));
      }
      resolve({
        stats: stats.toJson({ all: false, assets: true, chunks: true, chunkGroups: true, entrypoints: true, outputPath: true }),
        outputPath: config.output.path,
      });
    });
  });
}

const sizeCache = new Map();
function gzipSize(outputPath, file) {
  if (!sizeCache.has(file)) {
    const content = fs.readFileSync(path.join(outputPath, file));
    sizeCache.set(file, { raw: content.length, gzip: zlib.gzipSync(content, { level: 6 }).length });
  }
  return sizeCache.get(file);
}

const isJs = (file) => file.endsWith('.js');
const filesOf = (group) => (group.assets || []).map((asset) => (typeof asset === 'string' ? asset : asset.name)).filter(isJs);

function total(outputPath, files) {
  return files.reduce(
    (sum, file) => {
      const size = gzipSize(outputPath, file);
      return { raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip };
    },
    { raw: 0, gzip: 0 },
  );
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

async function main() {
  let result;
  try {
    result = await build();
  } catch (error) {
    console.error(`bench-bundle: the production build failed:\n${error.message || error}`);
    process.exit(1);
  }
  const { stats, outputPath } = result;
  const entry = stats.entrypoints[ENTRY];
  if (!entry) {
    console.error(`bench-bundle: no entry point named "${ENTRY}" in the build`);
    process.exit(1);
  }
  const initialFiles = filesOf(entry);
  const initial = new Set(initialFiles);
  const groups = stats.namedChunkGroups || {};

  const loginFiles = [...initialFiles];
  for (const name of LOGIN_LAZY_GROUPS) {
    if (groups[name]) for (const file of filesOf(groups[name])) if (!loginFiles.includes(file)) loginFiles.push(file);
  }
  const login = total(outputPath, loginFiles);

  const lazy = Object.entries(groups)
    .filter(([name]) => name !== ENTRY)
    .map(([name, group]) => {
      const files = filesOf(group).filter((file) => !initial.has(file));
      return { name, files, ...total(outputPath, files) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));

  const pass = login.gzip <= BUDGET_KB * KB;
  if (asJson) {
    console.log(
      JSON.stringify(
        {
          budgetKb: BUDGET_KB,
          login: { files: loginFiles, rawBytes: login.raw, gzipBytes: login.gzip, pass },
          lazy: lazy.map(({ name, files, raw, gzip }) => ({ name, files, rawBytes: raw, gzipBytes: gzip })),
        },
        null,
        2,
      ),
    );
    return;
  }

  const rows = [
    ['/login route (entry + lazy chunks it needs)', login.raw, login.gzip],
    ...lazy.map(({ name, raw, gzip }) => [`  lazy: ${name}`, raw, gzip]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`${'chunk'.padEnd(width)}  ${'minified'.padStart(10)}  ${'gzip -6'.padStart(10)}`);
  for (const [label, raw, gzip] of rows) console.log(`${label.padEnd(width)}  ${kb(raw).padStart(10)}  ${kb(gzip).padStart(10)}`);
  console.log('');
  console.log(
    `/login loads ${kb(login.gzip)} of gzipped JavaScript (${loginFiles.length} file(s)); budget ${BUDGET_KB} KB: ${pass ? 'PASS' : 'FAIL'}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
