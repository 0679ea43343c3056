import type { Page } from '@playwright/test';
import { channelMessage, freshId } from './deliveries';
import { expect } from './app';
import { closeToasts, openInbox, push, rows, shots, test } from './inboxPage';

// The alerts (a guest's new message, a paid link, a notice) come as toasts on whatever screen is open. They must not
// cover what the owner may be about to click: the screens' buttons sit top right, bottom right and along the bottom.

/**
 * What one can click or type in that lies under a toast, by its visible name, and how many toasts show. Wide screens
 * (`wide`): nothing at all may touch a toast. Small laptops: no control may have its middle (where one aims) under
 * one, except a field or a list's row in a pane that scrolls (its left end may be under the toast for the toast's few
 * seconds; the pane scrolls it clear). Buttons, tabs and links never.
 */
const underToasts = (wide: boolean) => `(() => {
  const wide = ${String(wide)};
  const toasts = [...document.querySelectorAll('.p-toast-message')]
    .map((toast) => toast.getBoundingClientRect())
    .filter((box) => box.width > 0);
  const selector =
    'button, a[href], input, textarea, select, [role="button"], [role="tab"], [role="radio"], [role="checkbox"], [role="link"], [role="gridcell"], [tabindex="0"]';
  // A pane that scrolls by keyboard (tabindex 0) holding controls is not one itself: its controls count.
  const controls = [...document.querySelectorAll(selector)].filter(
    (control) => !control.closest('.p-toast') && !control.querySelector(selector),
  );
  const scrolls = (element) => {
    for (let up = element.parentElement; up; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowY;
      if ((overflow === 'auto' || overflow === 'scroll') && up.scrollHeight > up.clientHeight + 1) return true;
    }
    return false;
  };
  const under = [];
  for (const control of controls) {
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === 'hidden') continue;
    if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) continue;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const scrolledContent = control.matches('input, textarea, select, .list-row') && scrolls(control);
    for (const toast of toasts) {
      const touches = box.left < toast.right && box.right > toast.left && box.top < toast.bottom && box.bottom > toast.top;
      const aimedAt = x >= toast.left && x <= toast.right && y >= toast.top && y <= toast.bottom;
      if (wide ? touches : aimedAt && !scrolledContent) {
        under.push((control.getAttribute('aria-label') || control.textContent || control.tagName).trim().slice(0, 60));
      }
    }
  }
  return { toasts: toasts.length, under };
})()`;

/**
 * Guests write now (`count` of them, each in a conversation of their own: a burst shows the inbox's most toasts at
 * once): the toasts show on the screen that is open; nothing clickable lies under them.
 */
async function toastCoversNothing(
  page: Page,
  app: Parameters<typeof push>[0],
  screen: string,
  size: string,
  count = 1,
) {
  let booking = '';
  for (let i = 0; i < count; i++) {
    booking = freshId().slice(-10);
    await push(app, channelMessage('19', booking, 'Can we check in early?'));
  }
  const toast = page.locator('.p-toast-message').filter({ hasText: `New message from Booking ${booking}` });
  await expect(toast).toBeVisible();
  // The newest two on a wide screen, the newest alone on a small laptop.
  await expect(page.locator('.p-toast-message:visible')).toHaveCount(Math.min(count, size === '1280' ? 2 : 1));
  // Announced to screen readers as it comes, and closable from the keyboard.
  await expect(toast).toHaveAttribute('role', 'alert');
  await expect(toast.getByRole('button', { name: /close/i })).toBeVisible();
  const found = (await page.evaluate(underToasts(size === '1280'))) as { toasts: number; under: string[] };
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
    // A burst of three (the most the inbox raises at once): the newest two in the sidebar on a wide screen (its
    // navigation stays free), the newest alone on a small laptop (over the list the burst filled).
    await toastCoversNothing(page, app, 'burst', size, 3);

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
