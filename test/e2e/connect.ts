import type { Page } from '@playwright/test';
import { expect, type RunningApp } from './app';

/**
 * Points the app at a test's own emulator through the Connection screen, as an owner would, then opens `screen`
 * (a navigation link) once the app's event socket is open.
 */
export async function connectTo(page: Page, app: RunningApp, port: number, screen = 'Inbox') {
  await page.goto(`${app.url}#/connection`);
  await page.getByRole('radio', { name: /Su sandbox/ }).click();
  await page.getByLabel('API base URL').fill(`http://127.0.0.1:${port}/SUAPI`);
  await page.getByLabel('Payment host base URL').fill(`http://127.0.0.1:${port}/token`);
  await page.getByLabel('Domain').fill('demo.innkeeper.test');
  await page.getByLabel('Client secret').fill('demo-client-secret');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('radio', { name: /Su sandbox/ })).toContainText('In use');
  // The "Saved" toast would sit on the screenshots.
  const toast = page.locator('.p-toast-message').filter({ hasText: 'now uses Su sandbox' });
  await toast.locator('.p-toast-close-button').click();
  await expect(toast).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen }).click();
  await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
}
