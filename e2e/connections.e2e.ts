import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, FAKES } from './playwright.config';
import { ensureAccount, signIn, uniqueEmail } from './support';

test('connect a channel, two YouTube configurations, authorize and test them, and a chat-model key', async ({ page }) => {
  const email = await ensureAccount(page.request, uniqueEmail('connections'));
  await signIn(page, email);

  // A channel.
  await page.getByRole('link', { name: 'Channels' }).click();
  await page.getByRole('button', { name: 'Connect channel' }).first().click();
  const channelDialog = page.getByRole('dialog', { name: 'Connect a channel' });
  await channelDialog.getByLabel('Channel ID').fill(FAKES.channelId);
  await channelDialog.getByLabel('Name').fill('E2E Stories');
  await channelDialog.getByRole('button', { name: 'Connect' }).click();
  await expect(channelDialog).toBeHidden();
  await expect(page.getByText('E2E Stories').first()).toBeVisible();

  // Two YouTube API configurations; the first is active until the second is made active.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'YouTube API' }).click();
  for (const name of ['Primary', 'Backup']) {
    await page.getByRole('button', { name: 'Add configuration' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add a YouTube API configuration' });
    await form.getByLabel(/^Name/).fill(name);
    await form.getByLabel('Channel ID').fill(FAKES.channelId);
    await form.getByLabel('OAuth client ID').fill(`${name.toLowerCase()}-client.apps.googleusercontent.com`);
    await form.getByLabel(/^OAuth client secret/).fill(`GOCSPX-${name}-secret`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText('YouTube API configuration saved')).toBeVisible();
  }
  const primary = page.getByRole('listitem').filter({ hasText: 'Primary' });
  const backup = page.getByRole('listitem').filter({ hasText: 'Backup' });
  await expect(primary.getByText('Active', { exact: true })).toBeVisible();
  await expect(backup.getByText('Active', { exact: true })).toHaveCount(0);
  await backup.getByRole('button', { name: 'Set active: Backup' }).click();
  await expect(backup.getByText('Active', { exact: true })).toBeVisible();
  await expect(primary.getByText('Active', { exact: true })).toHaveCount(0);

  // Authorize in Google's (fake) consent window, then test.
  const popupPromise = page.waitForEvent('popup');
  await backup.getByRole('button', { name: 'Authorize Backup' }).click();
  const popup = await popupPromise;
  await expect(popup.getByRole('status')).toContainText('Connected to YouTube channel');
  await expect(
    page.getByRole('status').filter({ hasText: 'Connected to YouTube channel “Fake Stories Channel”.' }),
  ).toBeVisible();
  await expect(backup.getByText('Connected', { exact: true })).toBeVisible();
  await backup.getByRole('button', { name: 'Test Backup' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Connected to (the )?YouTube/ })).toBeVisible();
  await expect(backup.getByText(/Last tested/)).toBeVisible();
  // Never authorized: the test says so.
  await expect(primary.getByText('Never tested')).toBeVisible();

  // The successful test refreshed the channel's counts.
  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByText('1,520')).toBeVisible();

  // A chat-model key, tested and saved.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'ChatGPT API' }).click();
  await page.getByLabel(/^API key/).fill('sk-e2e-invalid-key');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/Failed to connect to ChatGPT/)).toBeVisible();
  await page.getByLabel(/^API key/).fill('sk-e2e-good-key-1234');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/Connected to ChatGPT/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('ChatGPT API Key saved')).toBeVisible();
  await expect(page.getByText(/1234/)).toBeVisible();
  await expect(page.getByText('sk-e2e-good-key-1234')).toHaveCount(0);
});

test('an admin adds and tests a proxy; a user has no proxies panel', async ({ page }) => {
  await ensureAccount(page.request, ADMIN_EMAIL, 'E2E Admin');
  await signIn(page, ADMIN_EMAIL);
  await page.goto('/settings?tab=proxies');
  await page.getByRole('button', { name: 'Add proxy' }).first().click();
  const form = page.getByRole('dialog', { name: 'Add a proxy' });
  await form.getByLabel('Name').fill('Office');
  await form.getByLabel('URL').fill(`http://proxyuser:proxypass@127.0.0.1:${FAKES.proxy}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const office = page.getByRole('listitem').filter({ hasText: 'Office' });
  await expect(office.getByText('proxypass')).toHaveCount(0);
  await expect(office.getByText('Not tested')).toBeVisible();
  await office.getByRole('button', { name: 'Test Office' }).click();
  await expect(page.getByText(/Connected through “Office”/)).toBeVisible();
  await expect(office.getByText('Connected', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  const email = await ensureAccount(page.request, uniqueEmail('no-proxies'));
  await signIn(page, email);
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: 'YouTube API' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Proxies' })).toHaveCount(0);
});

test('a console authorization link opened in another browser is refused and stores nothing', async ({ page, browser }) => {
  const email = await ensureAccount(page.request, uniqueEmail('oauth-owner'));
  await signIn(page, email);
  await page.goto('/settings?tab=youtube-api');
  await page.getByRole('button', { name: 'Add configuration' }).first().click();
  const form = page.getByRole('dialog', { name: 'Add a YouTube API configuration' });
  await form.getByLabel(/^Name/).fill('Bound');
  await form.getByLabel('Channel ID').fill(FAKES.channelId);
  await form.getByLabel('OAuth client ID').fill('bound-client.apps.googleusercontent.com');
  await form.getByLabel(/^OAuth client secret/).fill('GOCSPX-bound-secret');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const bound = page.getByRole('listitem').filter({ hasText: 'Bound' });

  // The owner starts the authorization; the window's address (the link an attacker would send)
  // is kept and the window is stopped before it reaches Google.
  let link = '';
  await page.context().route('**/api/v1/youtube-auth?state=*', async (route) => {
    link = route.request().url();
    await route.abort();
  });
  const popupPromise = page.waitForEvent('popup');
  await bound.getByRole('button', { name: 'Authorize Bound' }).click();
  const popup = await popupPromise;
  await expect.poll(() => link).toContain('state=');
  await popup.close();

  // A victim opens the link in their own browser (another cookie jar): refused, nothing stored.
  const victim = await browser.newContext();
  const other = await victim.newPage();
  await other.goto(link);
  await expect(other.getByText(/not started in this browser/)).toBeVisible();
  await victim.close();

  await page.reload();
  await expect(page.getByRole('listitem').filter({ hasText: 'Bound' }).getByText('Connected', { exact: true })).toHaveCount(0);
});
