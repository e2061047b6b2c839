import { expect, test } from '@playwright/test';
import { FAKES } from './playwright.config';
import { PASSWORD, ensureAccount, signIn, uniqueEmail } from './support';

/**
 * A process from creation to a rendered video: the user's connections are made through the API
 * (the connections test clicks through them), then the process is created in its dialog, executed,
 * and the execution-status dialog is watched until the run has uploaded the video to the fake YouTube,
 * with the video playable in the dialog and the upload in the history.
 */
test('create a process, execute it, watch the status dialog advance and see the rendered video', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await ensureAccount(page.request, uniqueEmail('processes'));
  const login = await page.request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  expect(
    (await page.request.post('/api/v1/chatgpt/config', { headers, data: { api_key: 'sk-e2e-process-key-0123456789' } })).status(),
  ).toBe(201);
  expect(
    (
      await page.request.post('/api/v1/channels/', { headers, data: { channel_id: FAKES.channelId, name: 'Family Tales' } })
    ).status(),
  ).toBe(201);
  const config = await page.request.post('/api/v1/youtube-apis/', {
    headers,
    data: {
      name: 'Tales API',
      channel_id: FAKES.channelId,
      client_id: 'tales.apps.googleusercontent.com',
      client_secret: 'GOCSPX-tales',
    },
  });
  expect(config.status()).toBe(201);

  // Authorize the configuration in Google's (fake) consent window, so step 7 can upload.
  await signIn(page, email);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'YouTube API' }).click();
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Authorize Tales API' }).click();
  const popup = await popupPromise;
  await expect(popup.getByRole('status')).toContainText('Connected to YouTube channel');

  await page.getByRole('link', { name: 'Processes', exact: true }).click();
  await expect(page.getByText('Each process generates a video not yet generated for the selected language')).toBeVisible();
  await page.getByRole('button', { name: 'New process' }).first().click();

  const dialog = page.getByRole('dialog', { name: 'New process' });
  await dialog.getByLabel(/^Name/).fill('Weekly family secrets');
  const choose = async (label: RegExp, option: string | RegExp) => {
    await dialog.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option }).click();
  };
  await choose(/^Channel/, 'Family Tales');
  await expect(dialog.getByRole('combobox', { name: /^API configuration/ })).toContainText('Tales API');
  await choose(/^Prompt/, 'Segredos de Família');
  await choose(/^Voice/, /^Helena/);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Process “Weekly family secrets” created')).toBeVisible();
  await expect(page.getByText('Waiting for first execution')).toBeVisible();

  await page.getByRole('button', { name: 'Execute Weekly family secrets' }).click();
  // Queued at once (the client sets it before the server answers), then running once a worker takes
  // it; execute is disabled meanwhile.
  const badge = page.getByRole('button', { name: /^(Queued|Running): show the execution status of Weekly family secrets$/ });
  await expect(badge).toBeVisible();
  await badge.click();

  const status = page.getByRole('dialog', { name: 'Execution of “Weekly family secrets”' });
  await expect(status.getByText(/^Step \d of 7$/)).toBeVisible();
  await expect(status.getByRole('progressbar', { name: 'Execution progress' })).toBeVisible();
  // It advances past the texts while the dialog is open, then finishes with the upload.
  await expect(status.getByText(/^Step [3-7] of 7$/)).toBeVisible({ timeout: 60_000 });
  await expect(status.getByText('Completed', { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(status.getByText(/^Story: /)).toBeVisible();
  const video = status.locator('video');
  await expect(video).toBeVisible();
  const src = await video.getAttribute('src');
  expect(src).toMatch(/\/api\/v1\/media\/[0-9a-f-]{36}\/video\.mp4\?/);
  const served = await page.request.get(src!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('video/mp4');
  await expect(status.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  // The upload is in the history, scheduled for the next day.
  await status.getByRole('button', { name: /close/i }).first().click();
  await page.getByRole('link', { name: 'History', exact: true }).click();
  await expect(page.getByRole('link', { name: /^Watch “.*” on YouTube/ }).first()).toBeVisible();
});
