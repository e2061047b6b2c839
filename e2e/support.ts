import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { FAKES } from './playwright.config';

export const PASSWORD = 'e2e-secret-1';

/**
 * Creates an account through the API and confirms its email by following the link the fake mail
 * server received (an admin address is admin only once confirmed). An existing account (409) was
 * confirmed when it was created. Answers the email.
 */
export async function ensureAccount(request: APIRequestContext, email: string, name = 'E2E User'): Promise<string> {
  const created = await request.post('/api/v1/auth/register', { data: { name, email, password: PASSWORD, plan: 'monthly' } });
  if (created.status() === 409) return email;
  if (created.status() !== 201) throw new Error(`sign-up failed: ${created.status()} ${await created.text()}`);
  const token = new URL(await confirmationLink(request, email)).searchParams.get('token');
  // An admin address is confirmed only with the account's password (docs/security.md); others ignore it.
  const verified = await request.post('/api/v1/auth/verify-email', { data: { token, password: PASSWORD } });
  if (verified.status() !== 200) throw new Error(`verification failed: ${verified.status()} ${await verified.text()}`);
  return email;
}

/** The newest confirmation link sent to `email`, read from the fake mail server's inbox (waits for it). */
export async function confirmationLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const inbox = await request.get(`http://127.0.0.1:${FAKES.inbox}/messages?to=${encodeURIComponent(email)}`);
        const messages = (await inbox.json()) as { text: string }[];
        link = messages
          .map((message) => /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(message.text)?.[0])
          .filter((found): found is string => found !== undefined)
          .at(-1);
        return link !== undefined;
      },
      { timeout: 20_000, message: `a confirmation email to ${email}` },
    )
    .toBe(true);
  return link!;
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
