import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { expect, startApp, stopApp, test } from './app';

const shots = 'test-results/screenshots';

/** What axe found on one screen, worded for the failure message. */
type Found = { screen: string; rule: string; impact: string; help: string; targets: string[] };

/** Runs axe (WCAG 2.0–2.2 A and AA) on the page as it is now, keeping every serious or critical violation. */
async function audit(page: Page, screen: string, found: Found[]) {
  // Transitions settle first: a dialog fading in, or a menu fading out after its choice, is measured at its final
  // colours. Two frames were not always enough (a faster machine ran axe while a menu was still fading out: its items'
  // text at 1.03:1), so it waits for every finite animation and transition on the page to end, then two frames.
  // Endless ones (a spinner) are left out. (Strings: the end-to-end specs are typed for Node, without the DOM.)
  // (Polled in the page: the app's Content-Security-Policy refuses the eval a string `waitForFunction` needs.)
  const ended = await page.evaluate(`new Promise((resolve) => {
    const start = performance.now();
    const check = () => {
      const running = document.getAnimations().filter(
        (a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity,
      );
      if (running.length === 0) resolve(true);
      else if (performance.now() - start > 10000) resolve(false);
      else setTimeout(check, 20); // not a frame callback: a page that draws no frames still ends by the limit
    };
    check();
  })`);
  expect(ended, `${screen}: animations still running after 10 s`).toBe(true);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  for (const v of results.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    found.push({
      screen,
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`),
    });
  }
  await page.screenshot({ path: `${shots}/D-a11y-${screen}.png`, animations: 'disabled' });
  // Every screen is also looked at on a small laptop (1024×680), then put back as it was.
  const size = page.viewportSize();
  if (size && size.width > 1024) {
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    await page.screenshot({ path: `${shots}/D-a11y-${screen}-1024.png`, animations: 'disabled' });
    await page.setViewportSize(size);
  }
}

/** A screen's link in the navigation (its name may go on with a count: "Property 3 unseen notices"). */
const nav = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .click();

/** Closes the alert toasts, so they neither cover the screen nor count twice. */
async function closeToasts(page: Page) {
  await page
    .locator('.p-toast-close-button')
    .evaluateAll((buttons) => buttons.forEach((b) => (b as unknown as { click(): void }).click()));
  await expect(page.locator('.p-toast-message')).toHaveCount(0);
}

test('every screen of the demo has no serious or critical accessibility violation (axe, WCAG 2.2 AA)', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  const found: Found[] = [];
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    const rows = page.getByTestId('thread-row');
    await expect(rows).toHaveCount(6, { timeout: 30_000 });
    await closeToasts(page);
    await audit(page, 'inbox-messages', found);

    await rows.first().click();
    await expect(page.getByTestId('composer')).toBeVisible();
    await audit(page, 'conversation', found);
    // An Expedia booking: the card's form for what the channel did not send, and the reply box asking for it.
    await page.getByTestId('booking-facts-edit').click();
    await expect(page.getByTestId('booking-facts-form')).toBeVisible();
    await page.getByTestId('saved-replies').click();
    await page.locator('#saved-replies-menu').getByText('Welcome').click();
    await expect(page.getByTestId('placeholder-ask')).toBeVisible();
    await audit(page, 'conversation-booking-facts', found);

    await page.getByTestId('tab-reviews').click();
    const reviews = page.getByTestId('review-row');
    await expect(reviews).toHaveCount(4);
    await audit(page, 'reviews', found);
    await reviews.first().click();
    await expect(page.getByTestId('review')).toBeVisible();
    await audit(page, 'review', found);

    await nav(page, 'Rates & availability');
    const cells = page.getByTestId('rate-cell');
    await expect(cells.first()).toBeVisible();
    await audit(page, 'rates-calendar', found);
    await cells.nth(2).click();
    await expect(page.getByTestId('rule-editor')).toBeVisible();
    await audit(page, 'rates-rule-editor', found);
    await page.keyboard.press('Escape');
    await page.getByTestId('rates-setup-button').click();
    await expect(page.getByTestId('rates-setup-dialog')).toBeVisible();
    await audit(page, 'rates-rooms', found);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('rates-setup-dialog')).toBeHidden();

    await nav(page, 'Property');
    for (const tab of ['details', 'facilities', 'notices', 'photos']) {
      await page.getByTestId(`property-tab-${tab}`).click();
      await expect(page.getByTestId(`property-tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
      await page.waitForLoadState('networkidle');
      await audit(page, `property-${tab}`, found);
    }

    await nav(page, 'Payments');
    await expect(page.getByTestId('new-payment-link')).toBeVisible();
    await expect(page.getByText('Partner accounts')).toBeVisible();
    await audit(page, 'payments', found);
    await page.getByTestId('new-payment-link').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await audit(page, 'payments-link-dialog', found);
    await page.keyboard.press('Escape');

    await nav(page, 'Connection');
    await expect(page.getByRole('heading', { name: 'Connection', level: 1 })).toBeVisible();
    await audit(page, 'connection', found);

    writeFileSync('test-results/a11y-violations.json', JSON.stringify(found, null, 2));
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  } finally {
    await stopApp(app);
  }
});

test('the keyboard reaches the content past the navigation, and focus returns to what opened a dialog or the rule editor', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    const focused = () => page.locator(':focus');

    // The skip link: the first Tab offers it, Enter moves into the screen's content.
    await page.keyboard.press('Tab');
    await expect(focused()).toHaveText('Skip to main content');
    await expect(focused()).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(focused()).toHaveAttribute('id', 'main');

    // A conversation (delivered by the demo), its saved replies, and its payment link dialog.
    const controls = page.getByTestId('messages-empty').getByTestId('demo-controls');
    await controls.getByTestId('demo-deliver-message').click();
    await page.getByTestId('thread-row').first().click();
    const savedReplies = page.getByTestId('saved-replies');
    await savedReplies.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Manage saved replies…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(savedReplies).toBeFocused();

    const linkButton = page.getByTestId('composer').getByRole('button', { name: 'Payment link' });
    await linkButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(linkButton).toBeFocused();

    // Payments: the link dialog and a partner account's dialog.
    await nav(page, 'Payments');
    const newLink = page.getByTestId('new-payment-link');
    await newLink.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(newLink).toBeFocused();
    const change = page.getByTestId('partner-change').first();
    await change.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('partner-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('partner-dialog')).toHaveCount(0);
    await expect(change).toBeFocused();

    // Rates: the rule editor opened from the calendar with the keyboard goes back to the calendar; the preview
    // goes back to its button.
    await nav(page, 'Rates & availability');
    const grid = page.getByTestId('rates-calendar');
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('rule-editor');
    await expect(editor).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(grid).toBeFocused();
    // A price this time, chosen with the mouse and opened with Enter; Add to draft also gives the focus back.
    await page.locator('[data-testid="rate-cell"][data-channel="19"]:not([data-target^="inv:"])').nth(3).click();
    await page.keyboard.press('Enter');
    await expect(editor).toBeVisible();
    await editor.getByLabel('Value', { exact: true }).fill('99');
    await editor.getByRole('button', { name: 'Add to draft' }).click();
    await expect(editor).toHaveCount(0);
    await expect(grid).toBeFocused();
    const preview = page.getByTestId('preview-button');
    await preview.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('preview-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('preview-dialog')).toHaveCount(0);
    await expect(preview).toBeFocused();

    // Property: a change to the details, previewed.
    await nav(page, 'Property');
    await page.getByTestId('property-tab-details').click();
    await page.getByTestId('details-property_name').fill('Harbour View Guesthouse & Garden');
    const propertyPreview = page.getByTestId('preview-button');
    await expect(propertyPreview).toBeEnabled();
    await propertyPreview.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(propertyPreview).toBeFocused();
  } finally {
    await stopApp(app);
  }
});

test('below 1200 px the sidebar keeps its icons, with the names for screen readers and as tooltips', async ({
  page,
}) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    const sidebar = page.locator('aside.shell__sidebar');
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const wide = (await sidebar.boundingBox())!.width;
    expect(wide).toBeGreaterThan(200);
    await expect(links.filter({ hasText: 'Rates & availability' })).toBeVisible();
    await page.screenshot({ path: `${shots}/D-sidebar-1280.png`, animations: 'disabled' });

    await page.setViewportSize({ width: 1024, height: 680 });
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeLessThan(80);
    for (const name of ['Inbox', 'Rates & availability', 'Property', 'Payments', 'Connection']) {
      const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${name}`) });
      // Named for screen readers, shown as a tooltip, and the icon alone on screen.
      await expect(link).toHaveAttribute('title', name);
      const box = (await link.boundingBox())!;
      expect(box.width).toBeLessThan(60);
      await expect(link.locator('.nav__name')).toHaveCSS('clip-path', 'inset(50%)');
    }
    // The main content takes the room the sidebar gave up.
    expect((await page.locator('#main').boundingBox())!.width).toBeGreaterThan(940);
    // The narrow sidebar passes axe too (names kept, contrast of the icons' badges).
    const found: Found[] = [];
    await audit(page, 'sidebar-1024', found);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connection' }).click();
    await expect(page.getByRole('heading', { name: 'Connection', level: 1 })).toBeVisible();
    await audit(page, 'connection-1024', found);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  } finally {
    await stopApp(app);
  }
});
