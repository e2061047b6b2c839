import { expect, test, type Page } from '@playwright/test';
import { confirmationLink, uniqueEmail } from './support';

/** The foundation's journey: sign up, preferences that survive a reload, sign out, sign in. */
const email = `e2e-${Date.now()}@example.com`;
const password = 'e2e-secret-1';

async function themeOf(page: Page): Promise<string> {
  // The page background follows the MUI theme: dark is near-black, light near-white.
  return page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number);
    return r! + g! + b! < 200 ? 'dark' : 'light';
  });
}

test('sign up, switch language and theme, sign out, fail and then pass a sign-in', async ({ page }) => {
  // First visit with an English browser: the console speaks English, dark theme.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await themeOf(page)).toBe('dark');

  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel('Full name').fill('Eva Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByText('Annual', { exact: true }).click();
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Eva Tester')).toBeVisible();
  await expect(page.getByText('Starter plan')).toBeVisible();

  // Portuguese and the light theme, kept across a reload.
  await page.getByRole('button', { name: /Switch to Portuguese/ }).click();
  await expect(page.getByRole('heading', { name: 'Painel' })).toBeVisible();
  await page.getByRole('button', { name: 'Mudar para o tema claro' }).click();
  expect(await themeOf(page)).toBe('light');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Painel' })).toBeVisible();
  expect(await themeOf(page)).toBe('light');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');

  // The sidebar reaches the other pages.
  await page.getByRole('link', { name: 'Canais' }).click();
  await expect(page).toHaveURL(/\/channels$/);

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();

  // A protected page now sends the visitor to the sign-in page.
  await page.goto('/processes');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toContainText('Credenciais inválidas');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/(dashboard|processes)$/);
  await expect(page.getByText('Eva Tester')).toBeVisible();
});

test('a signed-out visitor can ask for a password reset', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole('button', { name: 'Use another email' }).click();
  await expect(page.getByLabel('Email')).toHaveValue('');
});

test('a new account confirms its email from the link it was sent, and the banner goes', async ({ page }) => {
  const address = uniqueEmail('verify');
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Vera Confirm');
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const banner = page.getByRole('region', { name: 'Email confirmation' });
  await expect(banner).toContainText(`we sent a confirmation link to ${address}`);
  await expect(banner.getByRole('button', { name: 'Send it again' })).toBeEnabled();

  // The link of the (fake) mailbox, opened in this browser: confirmed, then on to the console.
  const link = await confirmationLink(page.request, address);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText('Your email is confirmed.')).toBeVisible();
  await page
    .getByRole('link', { name: 'Go to the dashboard' })
    .or(page.getByRole('button', { name: 'Go to the dashboard' }))
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('region', { name: 'Email confirmation' })).toHaveCount(0);

  // The link works once.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByRole('alert')).toBeVisible();
});
