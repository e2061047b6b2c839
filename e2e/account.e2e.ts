import { expect, test } from '@playwright/test';
import { PASSWORD, ensureAccount, signIn, uniqueEmail } from './support';

/**
 * The account in Settings and the subscription: the profile (name, email, time zone) saved for
 * real, a password change, a plan change that charges nothing, and the account deleted after the
 * password confirms it.
 */
test('edit the profile, change the password and the plan, then delete the account', async ({ page }) => {
  const email = await ensureAccount(page.request, uniqueEmail('account'), 'Clara Conta');
  await signIn(page, email);

  // Profile: a new name and time zone, kept across a reload; the top bar follows.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Profile' })).toBeVisible();
  await page.getByLabel('Full name').fill('Clara Nova');
  const zone = page.getByRole('combobox', { name: /^Time zone/ });
  await zone.click();
  await zone.fill('Lisbon');
  await page.getByRole('option', { name: /^Europe\/Lisbon/ }).click();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.getByRole('banner').getByText('Clara Nova')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Full name')).toHaveValue('Clara Nova');
  await expect(page.getByRole('combobox', { name: /^Time zone/ })).toHaveValue(/^Europe\/Lisbon/);

  // Security: the rules first, then a real change.
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByLabel('Current password', { exact: false }).first().fill(PASSWORD);
  await page.getByLabel(/^New password/).fill('abc');
  await page.getByLabel(/^Confirm the new password/).fill('abd');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel(/^New password/).fill('brand-new-secret');
  await page.getByLabel(/^Confirm the new password/).fill('brand-new-secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();

  // Subscription: Professional, annual; nothing charged; the top bar shows the plan.
  await page.getByRole('link', { name: 'Subscription' }).click();
  await expect(page.getByRole('region', { name: 'Usage' })).toContainText('Connected channels');
  await page.getByRole('button', { name: 'Annual (save 20%)' }).click();
  await page.getByRole('button', { name: 'Choose this plan: Professional, annual' }).click();
  const change = page.getByRole('dialog', { name: 'Change to Professional (annual)?' });
  await expect(change).toContainText('Nothing is charged');
  await change.getByRole('button', { name: 'Change plan' }).click();
  await expect(page.getByText('You are now on the Professional plan (annual). Nothing was charged.')).toBeVisible();
  await expect(page.getByRole('banner').getByText('Professional plan')).toBeVisible();

  // Danger zone: a wrong password keeps the account; the right one deletes it.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Danger zone' }).click();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete the account ${email}?` });
  await dialog.getByLabel(/^Your password/).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete account forever' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The password is incorrect');
  await dialog.getByLabel(/^Your password/).fill('brand-new-secret');
  await dialog.getByRole('button', { name: 'Delete account forever' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account and everything in it were deleted.')).toBeVisible();

  // Gone for good: the old credentials no longer sign in.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('brand-new-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Invalid credentials')).toBeVisible();
});
