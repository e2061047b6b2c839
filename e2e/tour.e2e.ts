import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_EMAIL } from './playwright.config';
import { PASSWORD, ensureAccount, uniqueEmail } from './support';

/**
 * The finished console, screen by screen: every route in both languages and both themes, as a user
 * and as an admin, a screenshot of each (test-results/tour/), no console error anywhere, and an
 * axe-core check of every screen with no serious or critical violation, at 375 px wide too, where
 * nothing scrolls sideways and the menu still reaches every page.
 *
 * A tour loads its first page and goes to the others inside the app (client-side, as a click on a
 * link does): the app is not started again for every page, which made the tour several times
 * slower. What each page is checked for is the same.
 */

type Language = 'en' | 'pt';
type Theme = 'dark' | 'light';

const SIGNED_OUT = ['/login', '/signup', '/forgot-password'];
const ROUTES = [
  '/dashboard',
  '/processes',
  '/channels',
  '/prompts',
  '/voices',
  '/history',
  '/subscription',
  '/settings?tab=profile',
  '/settings?tab=security',
  '/settings?tab=youtube-api',
  '/settings?tab=chat-model',
  '/settings?tab=danger-zone',
];
const ADMIN_ROUTES = [...ROUTES, '/settings?tab=voices', '/settings?tab=music', '/settings?tab=proxies'];
const SHOTS = path.join(__dirname, '..', 'test-results', 'tour');
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const slug = (route: string) => route.replace(/^\//, '').replace(/[?=]/g, '-') || 'root';

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return (await login.json()).access_token;
}

/** Something on every page: a key, a channel, a configuration, a process and a publication. */
async function seed(request: APIRequestContext, token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  await request.post('/api/v1/chatgpt/config', { headers, data: { api_key: 'sk-tour-0123456789abcdef' } });
  const channelId = `UCtour${Math.floor(Math.random() * 1e9)}`;
  const channel = await (
    await request.post('/api/v1/channels/', { headers, data: { channel_id: channelId, name: 'Tour channel', min_views: 100 } })
  ).json();
  const config = await (
    await request.post('/api/v1/youtube-apis/', {
      headers,
      data: {
        name: 'Tour API',
        // A configuration uploads to the process's own channel (a split pair is refused).
        channel_id: channelId,
        client_id: 'tour.apps.googleusercontent.com',
        client_secret: 'GOCSPX-tour',
      },
    })
  ).json();
  await request.post('/api/v1/processes/', {
    headers,
    data: {
      name: 'Tour stories',
      channel_id: channel.id,
      youtube_api_id: config.id,
      prompt_id: '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b',
      language: 'pt',
      voice_id: '387bfe25-192a-4eb3-aa8b-be1f9e202b9a',
    },
  });
  await request.post('/api/v1/publications/', {
    headers,
    data: {
      video_title: 'A carta da avó',
      video_id: 'tourVideo01',
      channel_id: channel.id,
      status: 'published',
      visibility: 'public',
      published_at: new Date(Date.now() - 86_400_000).toISOString(),
    },
  });
}

/** The session and the preferences, as the app keeps them in local storage (redux-persist). */
async function prepare(page: Page, token: string | null, language: Language, theme: Theme): Promise<string[]> {
  const stored = (value: Record<string, unknown>) =>
    JSON.stringify({
      ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, JSON.stringify(v)])),
      _persist: JSON.stringify({ version: -1, rehydrated: true }),
    });
  await page.addInitScript(
    ([auth, preferences]) => {
      if (auth) window.localStorage.setItem('persist:auth', auth);
      window.localStorage.setItem('persist:preferences', preferences!);
    },
    [token ? stored({ token }) : null, stored({ language, theme })],
  );
  // Thumbnails come from YouTube's image host; these machines are offline.
  await page.route('https://i.ytimg.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/** Calls to the API not yet answered, per page (see `watchApi`). */
const pendingApiCalls = new WeakMap<Page, Set<unknown>>();

/** Counts the page's calls to the API in flight, so that `visit` can wait for a screen's data. */
function watchApi(page: Page): void {
  const pending = new Set<unknown>();
  pendingApiCalls.set(page, pending);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/**
 * Opens a route and waits for its heading and its data. The first route of a page loads it; the
 * next ones navigate inside the app (history.pushState and a popstate event, which the router
 * follows as it follows the back button), as a click on a link does.
 */
async function visit(page: Page, route: string): Promise<void> {
  if (!pendingApiCalls.has(page)) watchApi(page);
  if (!/^https?:/.test(page.url())) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    // The app runs (it has taken over the sign-in card /login is served with): it follows the next navigation.
    await expect(page.locator('style[data-prerender]')).toHaveCount(0);
  } else {
    await page.evaluate((to) => {
      // The headings of the screen being left: the new screen's are the others.
      for (const heading of Array.from(document.querySelectorAll('h1'))) heading.dataset.left = '';
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, route);
  }
  const tab = new URL(route, 'http://tour').searchParams.get('tab');
  // A settings section has its own panel; another screen its own heading.
  await expect(page.locator(tab ? `#settings-panel-${tab}` : 'h1:not([data-left])').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect.poll(() => pendingApiCalls.get(page)!.size, { message: `${route}: calls to the API still running` }).toBe(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** The serious and critical axe-core violations of the page as it is, described for the report. */
async function axe(page: Page, route: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${route}: ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.replace(/\s+/g, ' '))
          .slice(0, 4)
          .join('\n    ')}`,
    );
}

/**
 * Each role sees every page in both languages and both themes, each language in both themes, with
 * axe on every page: four tours. (The four other pairings added only screenshots and half of
 * the suite's time.)
 */
const combos: { role: 'user' | 'admin'; language: Language; theme: Theme; axe: boolean }[] = [
  { role: 'admin', language: 'en', theme: 'dark', axe: true },
  { role: 'admin', language: 'pt', theme: 'light', axe: true },
  { role: 'user', language: 'en', theme: 'light', axe: true },
  { role: 'user', language: 'pt', theme: 'dark', axe: true },
];

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

for (const { role, language, theme, axe: check } of combos) {
  test(`tour as ${role}, ${language}, ${theme}${check ? ', with axe' : ''}`, async ({ page }) => {
    test.setTimeout(180_000);
    const email = role === 'admin' ? ADMIN_EMAIL : uniqueEmail(`tour-${language}-${theme}`);
    await ensureAccount(page.request, email, role === 'admin' ? 'Ada Admin' : 'Tiago Tour');
    const token = await tokenOf(page.request, email);
    await seed(page.request, token);
    const errors = await prepare(page, token, language, theme);
    const violations: string[] = [];
    for (const route of role === 'admin' ? ADMIN_ROUTES : ROUTES) {
      await visit(page, route);
      await page.screenshot({ path: path.join(SHOTS, `${role}-${language}-${theme}-${slug(route)}.png`), fullPage: true });
      if (check) violations.push(...(await axe(page, route)));
    }
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
  });
}

for (const theme of ['dark', 'light'] as const) {
  test(`signed-out screens, ${theme}, in both languages, with axe`, async ({ browser }) => {
    const violations: string[] = [];
    for (const language of ['en', 'pt'] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = await prepare(page, null, language, theme);
      for (const route of SIGNED_OUT) {
        await visit(page, route);
        await page.screenshot({ path: path.join(SHOTS, `visitor-${language}-${theme}-${slug(route)}.png`), fullPage: true });
        violations.push(...(await axe(page, `${route} (${language})`)));
      }
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(violations).toEqual([]);
  });
}

/**
 * At 375 px wide: nothing scrolls sideways, the open settings section's tab is in view, axe finds
 * nothing serious or critical; a screenshot of each.
 */
async function checkNarrow(page: Page, route: string, shot: string): Promise<string[]> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${route} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  if (route.startsWith('/settings')) {
    // The row of section tabs scrolls; the open section's tab is brought fully into view.
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const tab = document.querySelector('[role="tab"][aria-selected="true"]')!.getBoundingClientRect();
            const list = document.querySelector('[role="tablist"]')!.parentElement!.getBoundingClientRect();
            return tab.left >= list.left - 1 && tab.right <= list.right + 1;
          }),
        { message: `${route}: the selected tab is cut off` },
      )
      .toBe(true);
  }
  await page.screenshot({ path: path.join(SHOTS, `narrow-${shot}.png`), fullPage: true });
  return axe(page, `${route} (375 px)`);
}

const NARROW = { viewport: { width: 375, height: 812 } };

test('at 375 px wide nothing scrolls sideways, axe finds nothing serious, and the menu reaches every page', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext(NARROW);
  const page = await context.newPage();
  await ensureAccount(page.request, ADMIN_EMAIL, 'Ada Admin');
  const token = await tokenOf(page.request, ADMIN_EMAIL);
  await seed(page.request, token);
  const errors = await prepare(page, token, 'en', 'dark');
  const violations: string[] = [];
  for (const route of ADMIN_ROUTES) {
    await visit(page, route);
    violations.push(...(await checkNarrow(page, route, slug(route))));
  }
  await page.getByRole('button', { name: 'Open the navigation menu' }).click();
  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
  expect(errors).toEqual([]);
  expect(violations).toEqual([]);
  await context.close();
});

test('at 375 px wide, the banner of an unconfirmed address wraps the longest address on every page, with axe', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext(NARROW);
  const page = await context.newPage();
  // Not confirmed: every signed-in page shows the banner, with the address in it.
  const email = uniqueEmail('an-unconfirmed-address-on-a-phone');
  const created = await page.request.post('/api/v1/auth/register', {
    data: { name: 'Una Unconfirmed', email, password: PASSWORD, plan: 'monthly' },
  });
  expect(created.status()).toBe(201);
  const token = await tokenOf(page.request, email);
  await seed(page.request, token);
  const errors = await prepare(page, token, 'pt', 'light');
  const violations: string[] = [];
  for (const route of ROUTES) {
    await visit(page, route);
    await expect(page.getByRole('region', { name: 'Confirmação de e-mail' })).toContainText(email);
    violations.push(...(await checkNarrow(page, route, `unconfirmed-${slug(route)}`)));
  }
  expect(errors).toEqual([]);
  expect(violations).toEqual([]);
  await context.close();
});

test('at 375 px wide, the signed-out screens in both languages, with axe', async ({ browser }) => {
  const violations: string[] = [];
  for (const [language, theme] of [
    ['en', 'light'],
    ['pt', 'dark'],
  ] as const) {
    const context = await browser.newContext(NARROW);
    const page = await context.newPage();
    const errors = await prepare(page, null, language, theme);
    for (const route of SIGNED_OUT) {
      await visit(page, route);
      violations.push(...(await checkNarrow(page, route, `visitor-${language}-${theme}-${slug(route)}`)));
    }
    expect(errors).toEqual([]);
    await context.close();
  }
  expect(violations).toEqual([]);
});

test('dialogs open from the keyboard, pass axe, trap focus and give it back when closed', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await ensureAccount(page.request, ADMIN_EMAIL, 'Ada Admin');
  const token = await tokenOf(page.request, ADMIN_EMAIL);
  await seed(page.request, token);
  const errors = await prepare(page, token, 'en', 'dark');
  const dialogs: [string, string][] = [
    ['/processes', 'New process'],
    ['/channels', 'Connect channel'],
    ['/prompts', 'New prompt'],
    ['/settings?tab=youtube-api', 'Add configuration'],
    ['/settings?tab=voices', 'Add voice'],
    ['/settings?tab=music', 'Upload music'],
    ['/settings?tab=proxies', 'Add proxy'],
    ['/settings?tab=danger-zone', 'Delete my account'],
    ['/subscription', 'Manage billing'],
  ];
  const violations: string[] = [];
  for (const [route, label] of dialogs) {
    await visit(page, route);
    const trigger = page.getByRole('button', { name: label }).first();
    await trigger.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    violations.push(...(await axe(page, `${route} (${label} dialog)`)));
    // Tabbing around stays inside the dialog.
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((node) => node.contains(document.activeElement)), `${label}: focus left the dialog`).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger, `${label}: focus is back on the button that opened it`).toBeFocused();
  }
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});
