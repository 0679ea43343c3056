import type { Page } from '@playwright/test';
import { expect, stopApp, test as base } from './app';

// What the reply journeys share: an app with a listener connected to the test's own emulator, and the
// composer's helpers.
export { expect };
import { connectTo } from './connect';
import { startPushableApp, startTestEmulator, type PushableApp, type TestEmulator } from './deliveries';

export const shots = 'test-results/screenshots';

/** `app` with a listener; `su`: the test's own emulator, which the app is connected to and pushes come from. */
export const test = base.extend<{ app: PushableApp; su: TestEmulator }>({
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    const app = await startPushableApp();
    await use(app);
    await stopApp(app);
  },
  su: async ({ app, page }, use) => {
    const su = await startTestEmulator();
    await su.control().setPartner(app.partner);
    await connectTo(page, app, su.port);
    await use(su);
    await su.stop();
  },
});

export const rows = (page: Page) => page.getByTestId('thread-row');
export const composer = (page: Page) => page.getByLabel(/^Reply on /);
export const lastMessage = (page: Page) => page.getByTestId('message').last();
export const delivery = (page: Page) => lastMessage(page).getByTestId('delivery');

export async function openThread(page: Page, text: string) {
  await rows(page).filter({ hasText: text }).click();
  await expect(page.getByTestId('thread')).toContainText(text);
  // Opening the conversation answers its new-message toast; wait until it is gone rather than click through it.
  await expect(page.locator('.p-toast-message')).toHaveCount(0);
}

/** Types a reply in the composer and sends it. */
export async function reply(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('composer-error')).toHaveCount(0);
  await expect(composer(page)).toHaveValue('');
  await expect(lastMessage(page)).toContainText(text);
}
