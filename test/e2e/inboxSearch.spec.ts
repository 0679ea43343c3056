import type { Page } from '@playwright/test';
import { expect } from './app';
import { closeToasts, openInbox, push, rows, shots, test } from './inboxPage';
import { airbnbMessage, channelMessage } from './deliveries';

// Issue 15, search in a blink, as the owner sees it: what is typed is looked for after a short pause, the rows on
// screen stay (dimmed when the answer is slow) until the answer replaces them, and guest names, booking numbers and
// property names are found like message text.

const shot = (page: Page, name: string) => page.screenshot({ path: `${shots}/P2-${name}.png` });

test('a search keeps the list on screen until its answer replaces it, and finds names, bookings and properties', async ({
  app,
  page,
}) => {
  await openInbox(page, app);
  await push(app, channelMessage('19', '4012345678', 'Is there a lift in the building?'));
  await push(app, channelMessage('9', '7712340000', 'Is parking free?', { hotelid: 'IK-DEMO-002' }));
  await push(app, channelMessage('19', '4055555555', 'Where is the key box?'));
  await push(app, airbnbMessage({ message: 'We will arrive late, around 23:00.' }));
  await expect(rows(page)).toHaveCount(4);
  await closeToasts(page);
  const box = page.getByLabel('Search conversations');
  const count = page.getByTestId('thread-count');

  // Found through the index: a booking number's middle, a property's name, the guest's name.
  await box.fill('23456');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is there a lift');
  await box.fill('old town');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is parking free?');
  await box.fill('chris');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('arrive late');
  await box.fill('');
  await expect(count).toHaveText('4 conversations');

  // A slow answer: the rows stay, marked busy and dimmed, until it comes and replaces them.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/call/inbox.threads', async (route) => {
    await held;
    await route.continue();
  });
  await box.fill('key box');
  const list = page.locator('.list__scroll');
  await expect(list).toHaveAttribute('aria-busy', 'true');
  await expect(list).toHaveCSS('opacity', '0.55');
  await expect(page.getByTestId('thread-searching')).toHaveCSS('opacity', '1');
  await expect(rows(page)).toHaveCount(4);
  await expect(count).toHaveText('4 conversations');
  for (const [width, height] of [
    [1280, 800],
    [1024, 680],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `search-waiting-${width}`);
  }
  release();
  await expect(rows(page)).toHaveCount(1);
  await expect(count).toHaveText('1 conversation');
  await expect(list).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('thread-searching')).toHaveCount(0);
  await expect(rows(page)).toContainText('Where is the key box?');
  await page.unroute('**/api/call/inbox.threads');
  for (const [width, height] of [
    [1280, 800],
    [1024, 680],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `search-found-${width}`);
  }
});
