import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL } from './playwright.config';
import { ensureAccount, signIn, uniqueEmail } from './support';

test('an admin curates prompts and voices; a user reads both without admin actions', async ({ page }) => {
  await ensureAccount(page.request, ADMIN_EMAIL, 'E2E Admin');
  await signIn(page, ADMIN_EMAIL);
  const name = `Noir ${Date.now()}`;

  // A prompt with three languages.
  await page.getByRole('link', { name: 'Prompts' }).click();
  await page.getByRole('button', { name: 'New prompt' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New prompt' });
  await editor.getByLabel(/^Name/).fill(name);
  await editor.getByLabel(/^Description/).fill('Detective stories in a rainy city');
  await editor.getByLabel(/^Base content/).fill('Write gripping noir stories.');
  await editor.getByRole('button', { name: 'Add language' }).click();
  await page.getByRole('menuitem', { name: /Spanish/ }).click();
  await editor.getByLabel(/^Title/).fill('Escribe un título para {premise}');
  await editor.getByRole('button', { name: 'Create prompt' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByText('Prompt created successfully!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: `View ${name}` }).click();
  const view = page.getByRole('dialog', { name: `Prompt “${name}”` });
  await expect(view.getByRole('tab')).toHaveCount(3);
  await page.keyboard.press('Escape');

  // Description only, then deactivate.
  await row.getByRole('button', { name: `Edit the description of ${name}` }).click();
  const description = page.getByRole('dialog', { name: `Edit the description of “${name}”` });
  await description.getByLabel(/^Description/).fill('Rain, smoke and secrets');
  await description.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByText('Rain, smoke and secrets')).toBeVisible();
  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();

  // A voice, and its sample played from the gallery.
  await page.goto('/settings?tab=voices');
  await page.getByRole('button', { name: 'Add voice' }).first().click();
  const voiceForm = page.getByRole('dialog', { name: 'Add a voice' });
  await voiceForm.getByLabel(/^Name/).fill('Lucia E2E');
  await voiceForm.getByLabel(/^Type/).fill('Narradora');
  await voiceForm.getByLabel(/^Sample URL/).fill('/api/v1/voice-samples/{id}.wav');
  await voiceForm.getByRole('button', { name: 'Save' }).click();
  await expect(voiceForm).toBeHidden();
  await expect(page.getByText('Voice created successfully!')).toBeVisible();

  await page.getByRole('link', { name: 'Voices' }).click();
  const sample = page.waitForResponse((r) => r.url().includes('/api/v1/voice-samples/') && r.status() === 200);
  await page.getByRole('button', { name: 'Play sample of Lucia E2E' }).click();
  const answer = await sample;
  expect(answer.headers()['content-type']).toContain('audio/wav');
  await expect(page.getByRole('button', { name: 'Stop' }).first()).toBeVisible();

  // A user sees both lists, without admin actions.
  await page.getByRole('button', { name: 'Sign out' }).click();
  const email = await ensureAccount(page.request, uniqueEmail('reader'));
  await signIn(page, email);
  await page.getByRole('link', { name: 'Prompts' }).click();
  const readerRow = page.getByRole('row').filter({ hasText: name });
  await expect(readerRow).toBeVisible();
  await expect(page.getByRole('button', { name: 'New prompt' })).toHaveCount(0);
  // A user reads a prompt before choosing it, and can do nothing else with it.
  await expect(readerRow.getByRole('button')).toHaveCount(1);
  await readerRow.getByRole('button', { name: `View ${name}` }).click();
  const readerView = page.getByRole('dialog', { name: `Prompt “${name}”` });
  await expect(readerView.getByRole('tab')).toHaveCount(3);
  await expect(readerView.getByRole('textbox')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(readerView).toBeHidden();
  await page.getByRole('link', { name: 'Voices' }).click();
  await expect(page.getByText('Lucia E2E')).toBeVisible();
  await page.goto('/settings?tab=voices');
  await expect(page.getByRole('button', { name: 'Add voice' })).toHaveCount(0);
});
