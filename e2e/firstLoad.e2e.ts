import { expect, test, type Page, type Route } from '@playwright/test';
import { ensureAccount, PASSWORD, uniqueEmail } from './support';

/**
 * /login and /signup are served with their screen already rendered (src/app/prerender.tsx): it
 * shows in the visitor's language and theme before any of the app's JavaScript runs, and the app
 * takes it over without a visible change, keeping what was typed (docs/web.md, "First load").
 */

/** The prerendered screens: their heading and first field in each language. */
const SCREENS = [
  { path: '/login', heading: { en: 'Sign in', pt: 'Entrar' }, firstField: { en: 'Email', pt: 'E-mail' } },
  {
    path: '/signup',
    heading: { en: 'Create your account', pt: 'Crie sua conta' },
    firstField: { en: 'Full name', pt: 'Nome completo' },
  },
] as const;

/** localStorage as the app leaves it for a visitor who chose `theme` and `language`. */
function storedPreferences({ theme, language }: { theme: string; language: string }) {
  window.localStorage.setItem(
    'persist:preferences',
    JSON.stringify({ theme: JSON.stringify(theme), language: JSON.stringify(language) }),
  );
}

/**
 * Holds every script of the app until `release()`: what the visitor sees meanwhile is the
 * prerendered page. (A navigation then waits for `commit` only: `load` waits for the scripts.)
 */
async function holdScripts(page: Page): Promise<{ release: () => void }> {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$/, (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  return {
    release() {
      released = true;
      for (const route of held.splice(0)) void route.continue();
    },
  };
}

/**
 * The pixels that differ visibly between two screenshots (compared in the page, on a canvas): how
 * many, and where. A channel off by a few levels is not a visible change (anti-aliasing at a
 * rounded corner is rasterised a level apart when the element is a new one).
 */
async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<{ count: number; box: number[] | null }> {
  return page.evaluate(
    async ([first, second, VISIBLE_DELTA]) => {
      const load = async (base64: string) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [one, other] = await Promise.all([load(first!), load(second!)]);
      const [x, y, width] = [one.data, other.data, one.width];
      if (x.length !== y.length) return { count: Number.POSITIVE_INFINITY, box: null };
      let count = 0;
      let box: number[] | null = null;
      for (let i = 0; i < x.length; i += 4) {
        const delta = Math.max(Math.abs(x[i]! - y[i]!), Math.abs(x[i + 1]! - y[i + 1]!), Math.abs(x[i + 2]! - y[i + 2]!));
        if (delta <= VISIBLE_DELTA) continue;
        count += 1;
        const [px, py] = [(i / 4) % width, Math.floor(i / 4 / width)];
        box = box
          ? [Math.min(box[0]!, px), Math.min(box[1]!, py), Math.max(box[2]!, px), Math.max(box[3]!, py)]
          : [px, py, px, py];
      }
      return { count, box };
    },
    [a.toString('base64'), b.toString('base64'), 4] as const,
  );
}

/** The password field on screen (getByLabel also finds hidden fields). */
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true }).filter({ visible: true });

for (const screen of SCREENS) {
  test(`before the app runs, ${screen.path} shows its card in the visitor language and theme, and never submits by itself`, async ({
    browser,
    baseURL,
  }) => {
    for (const preferences of [
      { theme: 'light', language: 'pt' },
      { theme: 'dark', language: 'en' },
    ] as const) {
      const context = await browser.newContext({ locale: 'en-US' });
      await context.addInitScript(storedPreferences, preferences);
      // A returning visitor: the app left the view cookie by which the server picks the page.
      await context.addCookies([
        { name: 'storyflow_view', value: `${preferences.language}-${preferences.theme}`, url: baseURL! },
      ]);
      await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { name: screen.heading[preferences.language] })).toBeVisible();
      // One card: one heading.
      await expect(page.getByRole('heading')).toHaveCount(1);
      const first = page.getByRole('textbox', { name: screen.firstField[preferences.language] });
      await expect(first).toBeFocused();
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(preferences.theme === 'light' ? 'rgb(245, 246, 250)' : 'rgb(15, 17, 21)');

      await first.fill('someone@example.com');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      // No page load with the form in the address (a password would be in it).
      expect(new URL(page.url()).search).toBe('');
      await expect(first).toHaveValue('someone@example.com');
      await context.close();
    }
  });
}

test('a page that is not the visitor choice shows no card, and the app then shows the right one', async ({ browser }) => {
  // The cookie is gone but the storage says Portuguese and light: the server guesses English, dark.
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(storedPreferences, { theme: 'light', language: 'pt' });
  const page = await context.newPage();
  const scripts = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('#root > .boot')).toBeAttached();
  await expect(page.getByRole('heading')).toHaveCount(0);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(245, 246, 250)');
  scripts.release();
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
  // The cookie is back: the next visit gets the right page.
  const cookies = await context.cookies();
  expect(cookies.find((cookie) => cookie.name === 'storyflow_view')?.value).toBe('pt-light');
  await context.close();
});

/** What the visitor does on a prerendered card before the app runs, and what the app must keep. */
interface TakeOver {
  path: string;
  card: string;
  /** Text fields typed in, by label, the first one focused by the page. */
  typed: Array<[label: string, value: string]>;
  /** The plan card clicked, and the one it unchecks. */
  plan?: { chosen: RegExp; other: RegExp };
}

const TAKE_OVERS: TakeOver[] = [
  { path: '/login', card: 'sign-in', typed: [['Email', 'kept@example.com']] },
  {
    path: '/signup',
    card: 'sign-up',
    typed: [
      ['Full name', 'Ana Souza'],
      ['Email', 'kept@example.com'],
    ],
    plan: { chosen: /Annual/, other: /Monthly/ },
  },
];

/**
 * Opens the screen with the app's scripts held and does on the prerendered card what `takeOver`
 * says, ending in the password field, half typed; then lets the app take the card over: nothing
 * may move in the two frames after, the fields must be React's, the typing, the plan and the
 * focus kept (typing goes on where it stopped), and the screen must look exactly as before.
 */
async function takeOverWithoutChange(page: Page, { path, typed, plan }: TakeOver): Promise<void> {
  const scripts = await holdScripts(page);
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page.getByRole('textbox', { name: typed[0]![0] })).toBeFocused();
  for (const [label, value] of typed) await page.getByRole('textbox', { name: label }).pressSequentially(value);
  // The plan: a click on its card checks its radio button, which the card shows at once.
  if (plan) await page.getByRole('radio', { name: plan.chosen }).click();
  const password = passwordField(page);
  await password.click();
  await password.pressSequentially('half-typed');
  // The labels' own focus transitions (200 ms: the email label greying, the password label turning
  // blue) end before the picture is taken; a picture taken mid-transition differed from the app's.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const before = await page.screenshot();
  const prerenderedField = await password.evaluate((input) => input.id);

  // Whatever starts moving in the two frames after the app replaced the card (a label sliding back
  // into place, an outline opening) is a visible jump.
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-prerender-variant]')) return;
      observer.disconnect();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          (window as unknown as { takeoverTransitions: string[] }).takeoverTransitions = document
            .getAnimations()
            .filter((animation) => animation instanceof CSSTransition)
            .map((animation) => (animation as CSSTransition).transitionProperty);
        }),
      );
    });
    observer.observe(document.getElementById('root')!, { childList: true, subtree: true });
  });
  scripts.release();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { takeoverTransitions?: string[] }).takeoverTransitions))
    .toEqual([]);
  // The app's field replaced the prerendered one: it has an id React made.
  await expect.poll(() => passwordField(page).evaluate((input) => input.id)).not.toBe(prerenderedField);
  await expect(page.locator('style[data-prerender]')).toHaveCount(0);
  await expect(passwordField(page)).toHaveValue('half-typed');
  await expect(passwordField(page)).toBeFocused();
  // Typing goes on where it stopped.
  await page.keyboard.type('-more');
  await expect(passwordField(page)).toHaveValue('half-typed-more');
  for (let i = 0; i < '-more'.length; i += 1) await page.keyboard.press('Backspace');
  const after = await page.screenshot();
  expect(await differingPixels(page, before, after)).toEqual({ count: 0, box: null });
  for (const [label, value] of typed) await expect(page.getByRole('textbox', { name: label })).toHaveValue(value);
  if (plan) {
    await expect(page.getByRole('radio', { name: plan.chosen })).toBeChecked();
    await expect(page.getByRole('radio', { name: plan.other })).not.toBeChecked();
  }
}

for (const takeOver of TAKE_OVERS) {
  test(`the app takes the prerendered ${takeOver.card} card over without a visible change, keeping the typing and the focus`, async ({
    page,
  }) => {
    await takeOverWithoutChange(page, takeOver);
  });
}

test('a sign-in sent before the app ran is sent by the app when it arrives', async ({ page, request }) => {
  const email = uniqueEmail('early');
  await ensureAccount(request, email);
  const scripts = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await passwordField(page).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(page.url()).toMatch(/\/login$/);

  scripts.release();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a signed-in visitor of /login is not shown the sign-in card on the way to the dashboard', async ({ page, request }) => {
  const email = uniqueEmail('signed-in');
  await ensureAccount(request, email);
  const answer = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  await page.addInitScript((value) => {
    window.localStorage.setItem('persist:auth', JSON.stringify({ token: JSON.stringify(value) }));
  }, token);
  const scripts = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('#root > .boot')).toBeAttached();
  await expect(page.getByRole('heading')).toHaveCount(0);
  scripts.release();
  await expect(page).toHaveURL(/\/dashboard$/);
});
