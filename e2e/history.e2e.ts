import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { FAKES } from './playwright.config';
import { PASSWORD, ensureAccount, signIn, uniqueEmail } from './support';

const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

async function token(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  return { authorization: `Bearer ${(await login.json()).access_token}` };
}

/**
 * The history's actions on a video the engine really uploaded (to the fake YouTube): filters,
 * publish as public, the CSV report, delete with confirmation and the empty states.
 */
test('filter the history, publish a video as public, download the report and delete the video', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await ensureAccount(page.request, uniqueEmail('history'));
  const headers = await token(page.request, email);
  await page.request.post('/api/v1/chatgpt/config', { headers, data: { api_key: 'sk-e2e-history-key-0123456789' } });
  const channel = await (
    await page.request.post('/api/v1/channels/', { headers, data: { channel_id: FAKES.channelId, name: 'Night Tales' } })
  ).json();
  const config = await (
    await page.request.post('/api/v1/youtube-apis/', {
      headers,
      data: {
        name: 'History API',
        channel_id: FAKES.channelId,
        client_id: 'history.apps.googleusercontent.com',
        client_secret: 'GOCSPX-history',
      },
    })
  ).json();
  // A record made by hand (no video), so the filters have something to leave out.
  await page.request.post('/api/v1/publications/', { headers, data: { video_title: 'Imported old story', status: 'failed' } });

  await signIn(page, email);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'YouTube API' }).click();
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Authorize History API' }).click();
  await expect((await popupPromise).getByRole('status')).toContainText('Connected to YouTube channel');

  // A run that uploads a video.
  const process = await (
    await page.request.post('/api/v1/processes/', {
      headers,
      data: {
        name: 'History run',
        channel_id: channel.id,
        youtube_api_id: config.id,
        prompt_id: BUILTIN_DRAMA,
        language: 'pt',
        voice_id: HELENA,
      },
    })
  ).json();
  const executionId = (await (await page.request.post(`/api/v1/processes/${process.id}/execute`, { headers })).json())
    .execution_id;
  await expect
    .poll(async () => (await (await page.request.get(`/api/v1/executions/${executionId}`, { headers })).json()).status, {
      timeout: 90_000,
    })
    .toBe('completed');
  const title: string = (await (await page.request.get(`/api/v1/executions/${executionId}`, { headers })).json()).story_title;

  await page.getByRole('link', { name: 'History', exact: true }).click();
  await expect(page.getByText(title).first()).toBeVisible();
  await expect(page.getByText('Imported old story').first()).toBeVisible();

  // Filters: status, then a search that matches nothing, then cleared.
  await page.getByRole('combobox', { name: /^Status/ }).click();
  await page.getByRole('option', { name: 'Processing' }).click();
  await expect(page.getByText('Imported old story')).toHaveCount(0);
  await expect(page.getByText(title).first()).toBeVisible();
  await expect(page).toHaveURL(/status=processing/);
  await page.getByLabel('Search by title').fill('no such story anywhere');
  await expect(page.getByText('No publication matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByText('Imported old story').first()).toBeVisible();

  // The watch link opens YouTube's watch page for the video id in a new tab.
  const watch = page.getByRole('link', { name: `Watch “${title}” on YouTube (opens in a new tab)` }).first();
  await expect(watch).toHaveAttribute('href', /^https:\/\/www\.youtube\.com\/watch\?v=/);
  await expect(watch).toHaveAttribute('target', '_blank');

  // Publish as public, after confirming.
  await page
    .getByRole('button', { name: `Publish “${title}” as public` })
    .first()
    .click();
  const confirm = page.getByRole('dialog', { name: `Publish “${title}” as public?` });
  await confirm.getByRole('button', { name: 'Publish as public' }).click();
  await expect(page.getByText(`“${title}” is now public on YouTube.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Publish “${title}” as public` })).toHaveCount(0);

  // The report, as a CSV with a BOM.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^publications-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.toString('utf8')).toContain(title);

  // Delete the video, after confirming: gone from YouTube and from the history.
  await page
    .getByRole('button', { name: `Delete the video “${title}”` })
    .first()
    .click();
  const remove = page.getByRole('dialog', { name: `Delete “${title}”?` });
  await expect(remove.getByText(/also deleted from YouTube/)).toBeVisible();
  await remove.getByRole('button', { name: 'Delete video' }).click();
  await expect(page.getByText(`“${title}” deleted.`)).toBeVisible();
  await expect(page.getByRole('link', { name: `Watch “${title}” on YouTube (opens in a new tab)` })).toHaveCount(0);
});
