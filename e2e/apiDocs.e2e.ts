import { expect, test } from '@playwright/test';

/** The API reference page renders in the browser from the server's own OpenAPI document, offline. */
test('the API reference at /api/docs lists the calls, grouped by area', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') outside.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/api/docs/');
  await expect(page.getByRole('heading', { name: /StoryFlow API/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^processes/ })).toBeVisible();
  await expect(page.getByText('Run a process now')).toBeVisible();
  await expect(page.getByText('Create an account and sign in')).toBeVisible();
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});
