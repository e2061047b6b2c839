import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL, FAKES } from './playwright.config';
import { PASSWORD, ensureAccount, signIn, uniqueEmail } from './support';

/** A WAV file of `seconds` of a soft stereo chord: the admin's upload. */
function chordWav(seconds: number): Buffer {
  const rate = 22_050;
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 4);
  for (let i = 0; i < samples; i += 1) {
    const t = i / rate;
    const value = Math.round(
      3000 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277 * t) + Math.sin(2 * Math.PI * 330 * t)),
    );
    data.writeInt16LE(value, i * 4);
    data.writeInt16LE(value, i * 4 + 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The user's chat-model key, channel and an authorized YouTube configuration, so a run can upload. */
async function connect(page: Page, email: string, channelName: string, configName: string): Promise<void> {
  const login = await page.request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  expect(
    (await page.request.post('/api/v1/chatgpt/config', { headers, data: { api_key: 'sk-e2e-media-key-0123456789' } })).status(),
  ).toBe(201);
  expect(
    (
      await page.request.post('/api/v1/channels/', { headers, data: { channel_id: FAKES.channelId, name: channelName } })
    ).status(),
  ).toBe(201);
  const config = await page.request.post('/api/v1/youtube-apis/', {
    headers,
    data: {
      name: configName,
      channel_id: FAKES.channelId,
      client_id: 'media.apps.googleusercontent.com',
      client_secret: 'GOCSPX-media',
    },
  });
  expect(config.status()).toBe(201);
  await signIn(page, email);
  await page.goto('/settings?tab=youtube-api');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: `Authorize ${configName}` }).click();
  await expect((await popupPromise).getByRole('status')).toContainText('Connected to YouTube channel');
}

/**
 * Background music and vertical Shorts in the browser: an admin uploads a track and listens to it;
 * a user creates a Short with that music and a video with it too, runs the Short to the upload and
 * plays the vertical preview in the execution dialog.
 */
test('an admin uploads music; a user makes a Short and a video with it, and plays the Short', async ({ page }) => {
  test.setTimeout(180_000);
  const track = `Harbour lights ${Date.now()}`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-music-')), 'harbour.wav');
  fs.writeFileSync(file, chordWav(8));

  // The admin's library: upload, then listen (the player fetches the track by its signed link).
  await ensureAccount(page.request, ADMIN_EMAIL, 'E2E Admin');
  await signIn(page, ADMIN_EMAIL);
  await page.goto('/settings?tab=music');
  await page.getByRole('button', { name: 'Upload music' }).first().click();
  const upload = page.getByRole('dialog', { name: 'Upload music' });
  await upload.getByLabel(/^Name/).fill(track);
  await upload.getByRole('combobox', { name: /^Mood/ }).click();
  await page.getByRole('option', { name: 'Calm' }).click();
  await upload.getByLabel('Audio file').setInputFiles(file);
  await expect(upload.getByText(/^harbour\.wav · /)).toBeVisible();
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('Music uploaded successfully!')).toBeVisible();
  const item = page.getByRole('listitem', { name: track });
  await expect(item).toContainText('0:08 · WAV');
  const played = page.waitForResponse((r) => r.url().includes('/api/v1/music/') && r.url().includes('/audio?') && r.ok());
  await item.getByRole('button', { name: `Listen to ${track}` }).click();
  expect((await played).headers()['content-type']).toBe('audio/wav');
  await item.getByRole('button', { name: `Pause ${track}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();

  // The user's processes: a Short with the music, and a landscape video with it too.
  const email = await ensureAccount(page.request, uniqueEmail('shorts'));
  await connect(page, email, 'Harbour Tales', 'Harbour API');
  await page.getByRole('link', { name: 'Processes', exact: true }).click();
  const create = async (name: string, format: 'Short' | 'Video') => {
    await page.getByRole('button', { name: 'New process' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New process' });
    await dialog.getByLabel(/^Name/).fill(name);
    const choose = async (label: RegExp, option: string | RegExp) => {
      await dialog.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option }).click();
    };
    await choose(/^Channel/, 'Harbour Tales');
    await expect(dialog.getByRole('combobox', { name: /^API configuration/ })).toContainText('Harbour API');
    await choose(/^Prompt/, 'Segredos de Família');
    await choose(/^Voice/, /^Helena/);
    await choose(/^Background music/, `${track} · Calm`);
    await dialog.getByRole('radio', { name: format }).check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Process “${name}” created`)).toBeVisible();
  };
  await create('Harbour video', 'Video');
  await create('Harbour short', 'Short');
  const short = page.getByRole('article', { name: 'Harbour short' });
  await expect(short).toContainText('Short (vertical, up to 3 min)');
  await expect(short).toContainText(track);
  await expect(page.getByRole('article', { name: 'Harbour video' })).toContainText('Video (1920×1080)');

  // Run the Short to the upload, then play its vertical preview.
  await page.getByRole('button', { name: 'Execute Harbour short' }).click();
  await page.getByRole('button', { name: /^(Queued|Running): show the execution status of Harbour short$/ }).click();
  const status = page.getByRole('dialog', { name: 'Execution of “Harbour short”' });
  await expect(status.getByText('Completed', { exact: true })).toBeVisible({ timeout: 150_000 });
  await expect(status.getByText(/music/i)).toHaveCount(0); // no warning: the music was there
  const video = status.locator('video');
  await expect(video).toBeVisible();
  const playback = await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (element.currentTime > 0.5) resolve();
        else if (Date.now() - started > 20_000) reject(new Error(`stuck at ${element.currentTime}`));
        else setTimeout(check, 100);
      };
      check();
    });
    return { width: element.videoWidth, height: element.videoHeight, time: element.currentTime, duration: element.duration };
  });
  expect(playback).toMatchObject({ width: 1080, height: 1920 });
  expect(playback.time).toBeGreaterThan(0.5);
  expect(playback.duration).toBeLessThanOrEqual(180);
});
