#!/usr/bin/env node
/**
 * First load of the web app, measured in a real browser (Debian's Chromium) against the real server.
 *
 *   1. Builds the web app for production with the project's webpack.config.js (into dist/web, with
 *      the .br/.gz files beside each asset) and the API server when it changed (scripts/build.js).
 *   2. Builds a one-page React + Material UI reference app (scripts/bench-reference/) into a
 *      temporary folder, and serves it compressed the same way (scripts/bench-reference/serve.js).
 *   3. Starts the server as `npm start` runs it (`node server/dist/server.js`) on a fresh DATA_DIR
 *      and a free PORT, and signs up a user through the API.
 *   4. In Chromium, each measure in a new browser context (an empty cache: a cold load), N times
 *      (5 by default), the median printed:
 *        - /login: the JavaScript it downloads (bytes on the wire, brotli as the browser asks for
 *          it; and what the .gz files of the same scripts weigh, for a browser without brotli),
 *          DOMContentLoaded, first contentful paint, and when the sign-in form is on screen;
 *        - the reference page: the same figures, and the ratio between the two;
 *        - sign-in: from the click on "Sign in" to the dashboard interactive (its heading shown,
 *          no spinner or skeleton left, the main thread free), and how much of it was the sign-in
 *          call itself (the server's password check) and the rest;
 *        - /dashboard opened by a signed-in user (token in storage): from navigation to interactive.
 *      Then every JavaScript chunk with its size raw, gzip and brotli, and which of them /login and
 *      the dashboard load.
 *   5. Prints each figure against its target. Exits 0 either way (1 if something failed to run).
 *
 *   node scripts/bench-bundle.js                 # build, measure, print
 *   node scripts/bench-bundle.js --runs 9        # more loads per figure
 *   node scripts/bench-bundle.js --no-build      # measure what dist/web and server/dist hold
 *   node scripts/bench-bundle.js --json          # machine-readable
 */
/* global window, document, location, requestAnimationFrame, getComputedStyle, Element -- in the page */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const webpack = require('webpack');

const ROOT = path.resolve(__dirname, '..');
const WEB_DIR = path.join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The targets of the first-load work, on a 2-core machine. */
const TARGETS = {
  loginFcpMs: 500,
  loginBrotliKb: 200,
  loginGzipKb: 200,
  signInToDashboardMs: 1000,
};

const KB = 1024;
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const skipBuild = args.includes('--no-build');
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 5) : 5;
const PASSWORD = 'bench-secret-1';

const log = (...parts) => {
  if (!asJson) console.log(...parts);
};
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value) => (value === null || value === undefined ? 'n/a' : `${Math.round(value)} ms`);
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

function median(values) {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// ---------------------------------------------------------------------------------------------
// Builds

function runWebpack(config) {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (stats.hasErrors()) {
        const info = stats.toJson({ all: false, errors: true });
        return reject(new Error(info.errors.map((e) => e.message).join('\n\n')));
      }
      resolve(stats.toJson({ all: false, assets: true, chunkGroups: true }));
    });
  });
}

/** The production build of the web app, as `npm run build:web` makes it. */
async function buildWeb() {
  const makeConfig = require(path.join(ROOT, 'webpack.config.js'));
  const config = typeof makeConfig === 'function' ? makeConfig({}, { mode: 'production' }) : makeConfig;
  const started = Date.now();
  const stats = await runWebpack(config);
  // Tell scripts/build.js (npm start) that dist/web is up to date with the sources.
  const { fingerprint } = require('./build.js');
  fs.writeFileSync(path.join(WEB_DIR, '.build-fingerprint'), `${fingerprint('web')}\n`);
  log(`bench: built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return stats;
}

async function buildReference(outputPath) {
  const makeConfig = require('./bench-reference/webpack.config.js');
  const started = Date.now();
  await runWebpack(makeConfig({ outputPath }));
  log(`bench: built the reference page in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * A label for each built script: named chunks keep their name; a shared chunk is named after the
 * screens that load it ("shared: login, signup +2"). Without the build's stats (--no-build), the
 * file name's own prefix.
 */
function chunkLabels(stats) {
  const groupsOfFile = new Map();
  for (const [group, info] of Object.entries(stats?.namedChunkGroups || {})) {
    if (group.startsWith('locale-')) continue;
    for (const asset of info.assets || []) {
      const file = typeof asset === 'string' ? asset : asset.name;
      if (!groupsOfFile.has(file)) groupsOfFile.set(file, []);
      groupsOfFile.get(file).push(group);
    }
  }
  return (file) => {
    const name = path.basename(file).replace(/\.[0-9a-f]{8,}\.js$/, '');
    if (!/^\d+$/.test(name)) return name;
    const groups = groupsOfFile.get(file);
    if (!groups) return `shared ${name}`;
    return `shared: ${groups.slice(0, 3).join(', ')}${groups.length > 3 ? ` +${groups.length - 3}` : ''}`;
  };
}

/** Sizes of one built file: raw, and its .gz / .br beside it (the raw size when there is none). */
function sizesOf(folder, file) {
  const full = path.join(folder, file);
  const size = (candidate) => (fs.existsSync(candidate) ? fs.statSync(candidate).size : null);
  const raw = size(full) ?? 0;
  return { raw, gzip: size(`${full}.gz`) ?? raw, brotli: size(`${full}.br`) ?? raw };
}

// ---------------------------------------------------------------------------------------------
// Servers

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForUrl(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process serving ${url} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

function startProcess(command, commandArgs, env) {
  const child = spawn(command, commandArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.lastError = () => stderr;
  return child;
}

function stopProcess(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The console's server, as `npm start` runs it, on a fresh data folder. */
async function startApp(dataDir) {
  const port = await freePort();
  const child = startProcess(process.execPath, ['server/dist/server.js'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForUrl(`${origin}/api/v1/health`, child, 180_000);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${error.message}\n${child.lastError()}`);
  }
  return { child, origin };
}

async function startReference(folder) {
  const port = await freePort();
  const child = startProcess(process.execPath, [path.join(__dirname, 'bench-reference/serve.js'), folder, String(port)], {});
  const origin = `http://127.0.0.1:${port}`;
  await waitForUrl(`${origin}/`, child, 30_000);
  return { child, origin };
}

async function signUp(origin) {
  const email = `bench-${Date.now()}@example.com`;
  const response = await fetch(`${origin}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({ name: 'Bench User', email, password: PASSWORD, plan: 'monthly' }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = await response.json();
  return { email, token: body.access_token ?? body.token };
}

// ---------------------------------------------------------------------------------------------
// In the page

/**
 * Installed before any script of the page runs. Each animation frame it notes when the sign-in
 * form and the dashboard are first on screen (a frame's callbacks run right before it paints),
 * and it keeps the long tasks, the click on the submit button and the paints.
 */
function pageProbe() {
  const bench = {
    formAt: null,
    dashboardAt: null,
    clickAt: null,
    longTasks: [],
    paints: {},
    lcp: null,
  };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.startTime + entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.paints[entry.name] = entry.startTime;
    }).observe({ type: 'paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {
    // an older browser: the figures it lacks stay null
  }
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target;
      if (target instanceof Element && target.closest('button[type="submit"]')) bench.clickAt = performance.now();
    },
    true,
  );
  const busy = () => document.querySelector('[role="progressbar"], .MuiSkeleton-root, [aria-busy="true"]') !== null;
  const tick = () => {
    const now = performance.now();
    if (bench.formAt === null && document.querySelector('form input[type="email"]') && document.querySelector('h1')) {
      bench.formAt = now;
    }
    const dashboardReady = location.pathname === '/dashboard' && document.querySelector('main h1') !== null && !busy();
    if (!dashboardReady) bench.dashboardAt = null;
    else if (bench.dashboardAt === null) bench.dashboardAt = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Everything the page measured, in milliseconds from navigation start. */
function pageFigures() {
  const bench = window.__bench;
  const navigation = performance.getEntriesByType('navigation')[0];
  const scripts = performance
    .getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
    .map((entry) => ({
      path: new URL(entry.name).pathname,
      transferSize: entry.transferSize,
      encodedBodySize: entry.encodedBodySize,
      decodedBodySize: entry.decodedBodySize,
      start: entry.startTime,
      end: entry.responseEnd,
    }));
  const signInCall = performance
    .getEntriesByType('resource')
    .find((entry) => new URL(entry.name).pathname === '/api/v1/auth/login');
  return {
    signInCallMs: signInCall ? signInCall.responseEnd - signInCall.startTime : null,
    domContentLoaded: navigation ? navigation.domContentLoadedEventEnd : null,
    load: navigation ? navigation.loadEventEnd : null,
    documentTransferSize: navigation ? navigation.transferSize : null,
    fcp: bench.paints['first-contentful-paint'] ?? null,
    lcp: bench.lcp,
    formAt: bench.formAt,
    dashboardAt: bench.dashboardAt,
    clickAt: bench.clickAt,
    longTasks: bench.longTasks,
    scripts,
  };
}

/** The first moment from which the page is ready and the main thread is free: readiness, or the end of a long task under way. */
function interactiveAt(readyAt, longTasks) {
  let at = readyAt;
  for (const [start, end] of longTasks) if (start <= at && end > at) at = end;
  return at;
}

async function newPage(browser, init) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
  await context.addInitScript(pageProbe);
  if (init) await context.addInitScript(init.script, init.arg);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, errors };
}

/** A cold load of `url`: until `readyFn` holds in the page and the network is idle. */
async function coldLoad(browser, url, readyFn, init) {
  const { context, page, errors } = await newPage(browser, init);
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(readyFn, null, { timeout: 60_000, polling: 50 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    await sleep(300); // the last paints and long tasks reach their observers
    return { ...(await page.evaluate(pageFigures)), errors };
  } finally {
    await context.close();
  }
}

/** From the click on "Sign in" to the dashboard interactive. */
async function signInRun(browser, origin, email) {
  const { context, page, errors } = await newPage(browser);
  try {
    await page.goto(`${origin}/login`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => window.__bench.formAt !== null, null, { timeout: 60_000 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    await page.fill('input[type="email"]', email);
    await page.fill('input[type="password"]', PASSWORD);
    const scriptsBefore = (await page.evaluate(pageFigures)).scripts.length;
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => window.__bench.dashboardAt !== null, null, { timeout: 60_000, polling: 50 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    await sleep(300);
    // Still ready after the network settled (a late spinner would have reset the moment).
    await page.waitForFunction(() => window.__bench.dashboardAt !== null, null, { timeout: 60_000, polling: 50 });
    const figures = await page.evaluate(pageFigures);
    const interactive = interactiveAt(figures.dashboardAt, figures.longTasks);
    return {
      signInToDashboard: interactive - figures.clickAt,
      signInCall: figures.signInCallMs,
      scripts: figures.scripts.slice(scriptsBefore),
      errors,
    };
  } finally {
    await context.close();
  }
}

/** localStorage as redux-persist leaves it for a signed-in user, set before the app starts. */
function signedInStorage(token) {
  if (!window.localStorage.getItem('persist:auth')) {
    window.localStorage.setItem(
      'persist:auth',
      JSON.stringify({ token: JSON.stringify(token), _persist: JSON.stringify({ version: -1, rehydrated: true }) }),
    );
  }
}

/** localStorage as the app leaves it for a visitor who chose `theme`, set before the page runs. */
function storedTheme(theme) {
  window.localStorage.setItem('persist:preferences', JSON.stringify({ theme: JSON.stringify(theme), language: '"en"' }));
}

/** The page's background before the app's scripts have run (they are refused; index.html's own run). */
async function backgroundBeforeApp(browser, origin, theme) {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    await context.addInitScript(storedTheme, theme);
    await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${origin}/login`, { waitUntil: 'domcontentloaded' });
    return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  } finally {
    await context.close();
  }
}

/** The backgrounds of src/app/theme.ts, as computed styles. */
const THEME_BACKGROUNDS = { dark: 'rgb(15, 17, 21)', light: 'rgb(245, 246, 250)' };

// ---------------------------------------------------------------------------------------------
// Report

function scriptsSummary(runScripts, folder) {
  const files = [...new Set(runScripts.map((script) => script.path))];
  const gzip = files.reduce((sum, file) => sum + sizesOf(folder, file.replace(/^\//, '')).gzip, 0);
  const brotli = files.reduce((sum, file) => sum + sizesOf(folder, file.replace(/^\//, '')).brotli, 0);
  const raw = files.reduce((sum, file) => sum + sizesOf(folder, file.replace(/^\//, '')).raw, 0);
  const wire = runScripts.reduce((sum, script) => sum + script.transferSize, 0);
  return { files, wire, raw, gzip, brotli };
}

function verdict(value, target) {
  if (value === null) return 'n/a';
  return value <= target ? 'PASS' : 'FAIL';
}

async function main() {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'storyflow-bench-'));
  const referenceDir = path.join(temp, 'reference');
  const dataDir = path.join(temp, 'data');
  let app;
  let reference;
  let browser;
  try {
    let stats = null;
    if (!skipBuild) {
      stats = await buildWeb();
      require('./build.js').build(['server']);
    }
    if (!fs.existsSync(path.join(WEB_DIR, 'index.html')) || !fs.existsSync(path.join(ROOT, 'server/dist/server.js'))) {
      throw new Error('nothing to measure: run it without --no-build first');
    }
    await buildReference(referenceDir);

    log('bench: starting the server on a fresh data folder...');
    [app, reference] = await Promise.all([startApp(dataDir), startReference(referenceDir)]);
    const { email, token } = await signUp(app.origin);

    const { chromium } = require('@playwright/test');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

    const loginReady = () => window.__bench.formAt !== null;
    const referenceReady = () => document.querySelector('form input[type="email"]') !== null;
    const dashboardReady = () => window.__bench.dashboardAt !== null;
    const signedIn = { script: signedInStorage, arg: token };

    // One load of each first, unmeasured: the server's and the disk's first answers are not the point.
    await coldLoad(browser, `${app.origin}/login`, loginReady);
    await coldLoad(browser, `${reference.origin}/`, referenceReady);

    const login = [];
    const ref = [];
    const signIn = [];
    const dashboard = [];
    for (let run = 0; run < RUNS; run += 1) {
      log(`bench: run ${run + 1} of ${RUNS}...`);
      login.push(await coldLoad(browser, `${app.origin}/login`, loginReady));
      ref.push(await coldLoad(browser, `${reference.origin}/`, referenceReady));
      signIn.push(await signInRun(browser, app.origin, email));
      const opened = await coldLoad(browser, `${app.origin}/dashboard`, dashboardReady, signedIn);
      dashboard.push({ ...opened, interactive: interactiveAt(opened.dashboardAt, opened.longTasks) });
    }

    const backgrounds = {};
    for (const theme of Object.keys(THEME_BACKGROUNDS))
      backgrounds[theme] = await backgroundBeforeApp(browser, app.origin, theme);

    const errors = [...new Set([...login, ...signIn, ...dashboard].flatMap((run) => run.errors))];
    const loginScripts = scriptsSummary(login[login.length - 1].scripts, WEB_DIR);
    const refScripts = scriptsSummary(ref[ref.length - 1].scripts, referenceDir);
    const signInScripts = scriptsSummary(signIn[signIn.length - 1].scripts, WEB_DIR);
    const dashboardScripts = scriptsSummary(dashboard[dashboard.length - 1].scripts, WEB_DIR);
    const result = {
      runs: RUNS,
      login: {
        jsWireBytes: median(login.map((run) => run.scripts.reduce((sum, script) => sum + script.transferSize, 0))),
        jsBrotliBytes: loginScripts.brotli,
        jsGzipBytes: loginScripts.gzip,
        jsRawBytes: loginScripts.raw,
        files: loginScripts.files,
        domContentLoadedMs: median(login.map((run) => run.domContentLoaded)),
        fcpMs: median(login.map((run) => run.fcp)),
        formVisibleMs: median(login.map((run) => run.formAt)),
        lcpMs: median(login.map((run) => run.lcp)),
      },
      reference: {
        jsWireBytes: median(ref.map((run) => run.scripts.reduce((sum, script) => sum + script.transferSize, 0))),
        jsBrotliBytes: refScripts.brotli,
        jsGzipBytes: refScripts.gzip,
        domContentLoadedMs: median(ref.map((run) => run.domContentLoaded)),
        fcpMs: median(ref.map((run) => run.fcp)),
      },
      signIn: {
        toDashboardInteractiveMs: median(signIn.map((run) => run.signInToDashboard)),
        signInCallMs: median(signIn.map((run) => run.signInCall)),
        appPartMs: median(signIn.map((run) => run.signInToDashboard - run.signInCall)),
        jsWireBytes: median(signIn.map((run) => run.scripts.reduce((sum, script) => sum + script.transferSize, 0))),
        files: signInScripts.files,
      },
      dashboardOpened: {
        interactiveMs: median(dashboard.map((run) => run.interactive)),
        fcpMs: median(dashboard.map((run) => run.fcp)),
        domContentLoadedMs: median(dashboard.map((run) => run.domContentLoaded)),
        jsWireBytes: median(dashboard.map((run) => run.scripts.reduce((sum, script) => sum + script.transferSize, 0))),
        files: dashboardScripts.files,
      },
      backgroundsBeforeApp: backgrounds,
      errors,
    };
    result.ratio = {
      fcp: result.reference.fcpMs ? result.login.fcpMs / result.reference.fcpMs : null,
      domContentLoaded: result.reference.domContentLoadedMs
        ? result.login.domContentLoadedMs / result.reference.domContentLoadedMs
        : null,
      jsWire: result.reference.jsWireBytes ? result.login.jsWireBytes / result.reference.jsWireBytes : null,
    };

    // Every chunk of the build.
    const labelOf = chunkLabels(stats);
    const loginFiles = new Set(loginScripts.files.map((file) => file.replace(/^\//, '')));
    const signInFiles = new Set(signInScripts.files.map((file) => file.replace(/^\//, '')));
    const dashboardFiles = new Set(dashboardScripts.files.map((file) => file.replace(/^\//, '')));
    result.chunks = fs
      .readdirSync(path.join(WEB_DIR, 'assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => {
        const relative = `assets/${file}`;
        return {
          file: relative,
          name: labelOf(relative),
          ...sizesOf(WEB_DIR, relative),
          login: loginFiles.has(relative),
          afterSignIn: signInFiles.has(relative),
          dashboard: dashboardFiles.has(relative),
        };
      })
      .sort((a, b) => b.raw - a.raw);
    result.sourceMapsServed = fs.readdirSync(path.join(WEB_DIR, 'assets')).some((file) => file.endsWith('.map'));

    if (asJson) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    printReport(result);
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await Promise.all([stopProcess(app?.child), stopProcess(reference?.child)]);
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

function printReport(result) {
  const { login, reference, signIn, dashboardOpened, ratio } = result;
  console.log('');
  console.log('JavaScript chunks (L: /login loads it, S: loaded on sign-in, D: /dashboard opened cold loads it)');
  const width = Math.max(...result.chunks.map((chunk) => chunk.name.length), 10);
  console.log(`  ${'chunk'.padEnd(width)}  ${'raw'.padStart(9)}  ${'gzip'.padStart(9)}  ${'brotli'.padStart(9)}  L S D`);
  for (const chunk of result.chunks) {
    const marks = [chunk.login ? 'L' : '.', chunk.afterSignIn ? 'S' : '.', chunk.dashboard ? 'D' : '.'].join(' ');
    console.log(
      `  ${chunk.name.padEnd(width)}  ${kb(chunk.raw).padStart(9)}  ${kb(chunk.gzip).padStart(9)}  ${kb(chunk.brotli).padStart(9)}  ${marks}`,
    );
  }
  console.log('');
  console.log(`Medians of ${result.runs} cold loads in Chromium (${CHROMIUM}), ${os.cpus().length} cores:`);
  console.log(
    `  /login          JS ${kb(login.jsWireBytes)} on the wire (${login.files.length} files; ${kb(login.jsRawBytes)} raw), DOMContentLoaded ${ms(login.domContentLoadedMs)}, FCP ${ms(login.fcpMs)}, form on screen ${ms(login.formVisibleMs)}, LCP ${ms(login.lcpMs)}`,
  );
  console.log(
    `  reference page  JS ${kb(reference.jsWireBytes)} on the wire, DOMContentLoaded ${ms(reference.domContentLoadedMs)}, FCP ${ms(reference.fcpMs)}`,
  );
  console.log(
    `  /login ÷ reference: FCP ${ratio.fcp?.toFixed(2) ?? 'n/a'}x, DOMContentLoaded ${ratio.domContentLoaded?.toFixed(2) ?? 'n/a'}x, JS on the wire ${ratio.jsWire?.toFixed(2) ?? 'n/a'}x`,
  );
  console.log(
    `  sign-in         click to dashboard interactive ${ms(signIn.toDashboardInteractiveMs)}, ${kb(signIn.jsWireBytes)} more JS (${signIn.files.length} files)`,
  );
  console.log(
    `                  of which POST /auth/login ${ms(signIn.signInCallMs)} (the server's password check: Argon2id, 128 MiB, 3 passes), the rest ${ms(signIn.appPartMs)}`,
  );
  console.log(
    `  /dashboard      opened signed in: interactive ${ms(dashboardOpened.interactiveMs)}, FCP ${ms(dashboardOpened.fcpMs)}, JS ${kb(dashboardOpened.jsWireBytes)} on the wire (${dashboardOpened.files.length} files)`,
  );
  const themes = Object.entries(result.backgroundsBeforeApp)
    .map(
      ([theme, color]) =>
        `${theme} ${color} (${color === THEME_BACKGROUNDS[theme] ? 'its own' : `NOT its own ${THEME_BACKGROUNDS[theme]}`})`,
    )
    .join(', ');
  console.log(`  before the app's scripts run, the page's background: ${themes}`);
  console.log(`  source maps in dist/web: ${result.sourceMapsServed ? 'YES (they should not be there)' : 'none'}`);
  if (result.errors.length > 0) console.log(`  console errors seen: ${result.errors.join(' | ')}`);
  console.log('');
  const lines = [
    ['/login first contentful paint', ms(login.fcpMs), `${TARGETS.loginFcpMs} ms`, verdict(login.fcpMs, TARGETS.loginFcpMs)],
    [
      '/login JavaScript, brotli (as delivered)',
      kb(login.jsWireBytes),
      `${TARGETS.loginBrotliKb} KB`,
      verdict(login.jsWireBytes, TARGETS.loginBrotliKb * KB),
    ],
    [
      '/login JavaScript, gzip',
      kb(login.jsGzipBytes),
      `${TARGETS.loginGzipKb} KB`,
      verdict(login.jsGzipBytes, TARGETS.loginGzipKb * KB),
    ],
    [
      'dashboard interactive after sign-in',
      ms(signIn.toDashboardInteractiveMs),
      `${TARGETS.signInToDashboardMs} ms`,
      verdict(signIn.toDashboardInteractiveMs, TARGETS.signInToDashboardMs),
    ],
  ];
  const labelWidth = Math.max(...lines.map(([label]) => label.length));
  console.log('Targets:');
  for (const [label, value, target, pass] of lines) {
    console.log(`  ${label.padEnd(labelWidth)}  ${value.padStart(9)}  (target ≤ ${target})  ${pass}`);
  }
}

main().catch((error) => {
  console.error(`bench-bundle: ${error.stack || error}`);
  process.exit(1);
});
