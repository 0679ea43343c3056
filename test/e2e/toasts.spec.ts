import type { Page } from '@playwright/test';
import { channelMessage, freshId } from './deliveries';
import { expect } from './app';
import { closeToasts, openInbox, push, rows, shots, test } from './inboxPage';

// The alerts (a guest's new message, a paid link, a notice) come as toasts on whatever screen is open. They must not
// cover what the owner may be about to click: the screens' buttons sit top right, bottom right and along the bottom.

/**
 * Everything one can click or type in whose middle (where one aims) lies under a toast, by its visible name, and how
 * many toasts there are.
 */
const UNDER_TOASTS = `(() => {
  const toasts = [...document.querySelectorAll('.p-toast-message')].map((toast) => toast.getBoundingClientRect());
  const selector =
    'button, a[href], input, textarea, select, [role="button"], [role="tab"], [role="radio"], [role="checkbox"], [role="link"], [role="gridcell"], [tabindex="0"]';
  // A pane that scrolls by keyboard (tabindex 0) holding controls is not one itself: its controls count.
  const controls = [...document.querySelectorAll(selector)].filter(
    (control) => !control.closest('.p-toast') && !control.querySelector(selector),
  );
  const under = [];
  for (const control of controls) {
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === 'hidden') continue;
    if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) continue;
    // Clickable where it is aimed at, its middle (a wide field may have its left end under the toast).
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    for (const toast of toasts) {
      if (x >= toast.left && x <= toast.right && y >= toast.top && y <= toast.bottom) {
        under.push((control.getAttribute('aria-label') || control.textContent || control.tagName).trim().slice(0, 60));
      }
    }
  }
  return { toasts: toasts.length, under };
})()`;

/** A guest writes now: its toast shows on the screen that is open; nothing clickable lies under it. */
async function toastCoversNothing(page: Page, app: Parameters<typeof push>[0], screen: string, size: string) {
  const booking = freshId().slice(-10);
  await push(app, channelMessage('19', booking, 'Can we check in early?'));
  const toast = page.locator('.p-toast-message').filter({ hasText: `New message from Booking ${booking}` });
  await expect(toast).toBeVisible();
  // Announced to screen readers as it comes, and closable from the keyboard.
  await expect(toast).toHaveAttribute('role', 'alert');
  await expect(toast.getByRole('button', { name: /close/i })).toBeVisible();
  const found = (await page.evaluate(UNDER_TOASTS)) as { toasts: number; under: string[] };
  expect(found.toasts, screen).toBeGreaterThan(0);
  expect(found.under, `${screen} at ${size}: under the toast`).toEqual([]);
  await page.screenshot({ path: `${shots}/D-toast-${screen}-${size}.png`, animations: 'disabled' });
  await closeToasts(page);
}

const nav = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .click();

for (const [width, height] of [
  [1280, 800],
  [1024, 680],
] as const) {
  const size = String(width);
  test(`at ${width}×${height} a toast covers none of the screen's buttons, fields or links`, async ({ app, page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await openInbox(page, app);
    // A conversation open: the page's buttons at the top right, Mark done, the reply box and Send.
    await push(app, channelMessage('9', '7712000001', 'Hello, is breakfast included?'));
    await rows(page).first().click();
    await expect(page.getByTestId('composer')).toBeVisible();
    await closeToasts(page);
    await toastCoversNothing(page, app, 'conversation', size);

    for (const [link, heading] of [
      ['Rates & availability', 'Rates & availability'],
      ['Property', 'Property'],
      ['Payments', 'Payments'],
      ['Connection', 'Connection'],
    ] as const) {
      await nav(page, link);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await toastCoversNothing(page, app, heading.split(' ')[0]!.toLowerCase(), size);
    }
  });
}
