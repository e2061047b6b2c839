import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { FAKES } from './playwright.config';
import { PASSWORD, ensureAccount, signIn, uniqueEmail } from './support';

/**
 * The owner stays in charge of a run: a process in review mode uploads its video private and waits
 * until the owner approves it in the execution dialog; a run can be cancelled from the same dialog.
 */

/** A signed-in user with a chat-model key, a channel and an authorized YouTube configuration. */
async function connectedUser(
  page: Page,
  prefix: string,
): Promise<{ headers: Record<string, string>; request: APIRequestContext }> {
  const email = await ensureAccount(page.request, uniqueEmail(prefix));
  const login = await page.request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  expect(
    (await page.request.post('/api/v1/chatgpt/config', { headers, data: { api_key: 'sk-e2e-review-key-0123456789' } })).status(),
  ).toBe(201);
  expect(
    (
      await page.request.post('/api/v1/channels/', { headers, data: { channel_id: FAKES.channelId, name: 'Review Tales' } })
    ).status(),
  ).toBe(201);
  const config = await page.request.post('/api/v1/youtube-apis/', {
    headers,
    data: {
      name: 'Review API',
      channel_id: FAKES.channelId,
      client_id: 'review.apps.googleusercontent.com',
      client_secret: 'GOCSPX-review',
    },
  });
  expect(config.status()).toBe(201);
  await signIn(page, email);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'YouTube API' }).click();
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Authorize Review API' }).click();
  const popup = await popupPromise;
  await expect(popup.getByRole('status')).toContainText('Connected to YouTube channel');
  await popup.close();
  return { headers, request: page.request };
}

async function createProcess(page: Page, name: string, review: boolean): Promise<void> {
  await page.getByRole('link', { name: 'Processes', exact: true }).click();
  await page.getByRole('button', { name: 'New process' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New process' });
  await dialog.getByLabel(/^Name/).fill(name);
  const choose = async (label: RegExp, option: string | RegExp) => {
    await dialog.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option }).click();
  };
  await choose(/^Channel/, 'Review Tales');
  await expect(dialog.getByRole('combobox', { name: /^API configuration/ })).toContainText('Review API');
  await choose(/^Prompt/, 'Segredos de Família');
  await choose(/^Voice/, /^Helena/);
  if (review) await dialog.getByRole('radio', { name: /After my review/ }).check();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Process “${name}” created`)).toBeVisible();
}

test('a process in review mode waits for the owner, who approves the video in the dialog', async ({ page }) => {
  test.setTimeout(180_000);
  await connectedUser(page, 'review');
  await createProcess(page, 'Reviewed tales', true);
  const card = page.getByRole('article', { name: 'Reviewed tales' });
  await expect(card.getByText('after your review')).toBeVisible();

  await card.getByRole('button', { name: 'Execute Reviewed tales' }).click();
  // The run goes through its seven steps, then waits: the video is on YouTube, private.
  const review = card.getByRole('button', { name: 'Awaiting review: review the video of Reviewed tales' });
  await expect(review).toBeVisible({ timeout: 150_000 });
  await expect(card.getByText('A video waits for your review.')).toBeVisible();
  await review.click();

  const dialog = page.getByRole('dialog', { name: 'Execution of “Reviewed tales”' });
  await expect(dialog.getByText('Waiting for your review')).toBeVisible();
  await expect(dialog.locator('video')).toBeVisible();
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('Video of “Reviewed tales” published on YouTube')).toBeVisible();
  await expect(dialog.getByText('Completed', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: /close/i }).first().click();

  // The history shows it published.
  await page.getByRole('link', { name: 'History', exact: true }).click();
  await expect(page.getByRole('link', { name: /^Watch “.*” on YouTube/ }).first()).toBeVisible();
});

test('a run is cancelled from its dialog once the owner confirms, and the process can run again', async ({ page }) => {
  test.setTimeout(120_000);
  await connectedUser(page, 'cancel');
  await createProcess(page, 'Cancelled tales', false);
  const card = page.getByRole('article', { name: 'Cancelled tales' });
  await card.getByRole('button', { name: 'Execute Cancelled tales' }).click();
  await card.getByRole('button', { name: /^(Queued|Running): show the execution status of Cancelled tales$/ }).click();

  const dialog = page.getByRole('dialog', { name: 'Execution of “Cancelled tales”' });
  await dialog.getByRole('button', { name: 'Cancel execution' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel the execution of “Cancelled tales”?' });
  await confirm.getByRole('button', { name: 'Cancel execution' }).click();
  await expect(page.getByText('Execution of “Cancelled tales” cancelled')).toBeVisible();
  await expect(dialog.getByText('Cancelled', { exact: true })).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: /close/i }).first().click();
  await expect(card.getByRole('button', { name: 'Execute Cancelled tales' })).toBeEnabled({ timeout: 20_000 });
  // The card tells the truth about its last run: cancelled, not idle or the outcome of an earlier run.
  await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
});
