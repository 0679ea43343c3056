import type { Page } from '@playwright/test';
import { expect, stopApp, test as base } from './app';
import { startPushableApp, type PushableApp } from './deliveries';

// What the inbox journeys share: a fresh app per test whose listener the test posts to, and the inbox page.

export const shots = 'test-results/screenshots';

/** `app`: a fresh Innkeeper per test whose listener the test can post to. */
export const test = base.extend<{ app: PushableApp }>({
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    const app = await startPushableApp();
    await use(app);
    await stopApp(app);
  },
});

/** Opens the app (it starts on the inbox) and waits until the core's events reach the page. */
export async function openInbox(page: Page, app: PushableApp) {
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
}

export async function push(app: PushableApp, body: unknown) {
  const answer = await app.push(body);
  expect(answer.status, answer.body).toBe(200);
}

/** Closes the new-message toasts, so a screenshot shows the screen beneath them. */
export async function closeToasts(page: Page) {
  await page
    .locator('.p-toast-close-button')
    .evaluateAll((buttons) => buttons.forEach((b) => (b as unknown as { click(): void }).click()));
  await expect(page.locator('.p-toast-message')).toHaveCount(0);
}

export const rows = (page: Page) => page.getByTestId('thread-row');
export const navBadge = (page: Page) => page.getByTestId('nav-badge-inbox');
