import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'e2e-secret-1';

/** Creates an account through the API (or signs in when it exists) and answers its email. */
export async function ensureAccount(request: APIRequestContext, email: string, name = 'E2E User'): Promise<string> {
  const created = await request.post('/api/v1/auth/register', { data: { name, email, password: PASSWORD, plan: 'monthly' } });
  if (created.status() !== 201 && created.status() !== 409) throw new Error(`sign-up failed: ${created.status()} ${await created.text()}`);
  return email;
}

/** Signs in through the login screen (English interface) and waits for the dashboard. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
