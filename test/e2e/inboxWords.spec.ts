import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { expect, shootBoth, startApp, stopApp, test, type RunningApp } from './app';
import { channelMessage, currentReview, freePort } from './deliveries';
import { expectWords } from './words';

// Issue 26 on the inbox: the owner reads words on every inbox screen of the demo — the conversations (each one
// opened, its booking card, the form that adds the guest and stay, its payments), the composer with its saved
// replies, the reviews (each one opened, a reply sent), search, the filters and the banner of deliveries kept
// aside — never an enumeration code (in_review, REVIEW_PUBLISHED), a field name (message_id), a channel's number
// without its name, nor undefined/null/NaN or raw JSON.

/**
 * The placeholders the owner writes in a saved reply ({{guest_first_name}}, {{check_in}}): the owner's own text, read
 * as written in the saved-reply editor, its list and a reply they were inserted into (where the reply box asks for
 * each by name). Only the braced form is allowed; the same name bare would still fail.
 */
const PLACEHOLDERS = [/\{\{[a-z_]+\}\}/];

const rows = (page: Page) => page.getByTestId('thread-row');
const composer = (page: Page) => page.getByLabel(/^Reply on /);
const search = (page: Page) => page.getByLabel('Search conversations');

/** Both screen sizes, back at 1280×800 for what follows. */
async function both(page: Page, name: string) {
  await shootBoth(page, `inbox-words-${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The demo with its sample inbox, and a listener the test can post to as Su would (for a delivery kept aside). */
async function startDemo(): Promise<RunningApp & { push(body: unknown): Promise<number> }> {
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const app = await startApp({
    INNKEEPER_DEMO_INBOX: '1',
    INNKEEPER_PUSH_PORT: String(port),
    INNKEEPER_PUSH_USER: 'e2e-partner',
    INNKEEPER_PUSH_PASSWORD: password,
  });
  const authorization = `Basic ${Buffer.from(`e2e-partner:${password}`).toString('base64')}`;
  return {
    ...app,
    push: async (body) =>
      (
        await fetch(`http://127.0.0.1:${port}/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify(body),
        })
      ).status,
  };
}

async function demoInbox(page: Page, app: RunningApp) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(app.url);
  await expect(rows(page)).toHaveCount(6, { timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
}

test('every demo conversation, its booking, the composer and saved replies, search and filters show words', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const app = await startDemo();
  try {
    await demoInbox(page, app);
    for (const channel of ['Airbnb', 'Booking.com', 'Expedia']) {
      await expect(rows(page).filter({ hasText: channel }).first()).toBeVisible();
    }
    await expect(page.getByTestId('thread-count')).toHaveText('6 conversations');
    await expectWords(page, 'thread list');
    await both(page, 'list');

    // Each conversation in turn: its messages, header and booking card, and the form that adds the guest and stay.
    const count = await rows(page).count();
    for (let i = 0; i < count; i++) {
      const row = rows(page).nth(i);
      const guest = (await row.getByTestId('row-guest').innerText()).trim();
      // The channel by its name, never its number (244, 19, 9).
      await expect(row).toContainText(/Airbnb|Booking\.com|Expedia/);
      await row.click();
      const thread = page.getByTestId('thread');
      await expect(thread.locator('#thread-guest')).toHaveText(guest);
      await expect(page.getByTestId('message').first()).toBeVisible();
      await expect(page.getByTestId('booking')).toBeVisible();
      await expect(composer(page)).toBeVisible();
      await expectWords(page, `conversation ${i + 1} (${guest})`);
      const add = page.getByTestId('booking-facts-edit');
      if (await add.isVisible()) {
        await add.click();
        const form = page.getByTestId('booking-facts-form');
        await expect(form).toBeVisible();
        await expectWords(page, `conversation ${i + 1} (${guest}), adding the guest and stay`);
        // Saved with mistakes: each field says what is wrong, in words.
        await form.getByLabel('Arrival').fill('2026-12-10');
        await form.getByLabel('Departure').fill('2026-12-08');
        await form.getByLabel('Guests').fill('0');
        await form.getByTestId('booking-facts-save').click();
        await expect(form.locator('.p-message-error, [role="alert"]').first()).toBeVisible();
        await expectWords(page, `conversation ${i + 1} (${guest}), the guest and stay with mistakes`);
        await page.getByTestId('booking-facts-form').getByRole('button', { name: 'Cancel' }).click();
        await expect(page.getByTestId('booking-facts-form')).toHaveCount(0);
      }
      // On a small laptop the booking card folds into one line, and opens again.
      await page.setViewportSize({ width: 1024, height: 680 });
      const toggle = page.getByTestId('booking-toggle');
      if (await toggle.isVisible()) {
        await expect(page.getByTestId('booking-summary')).not.toBeEmpty();
        await expectWords(page, `conversation ${i + 1} (${guest}) on a small laptop`);
        await toggle.click();
        await expect(page.getByTestId('booking-check-in')).toBeVisible();
      }
      await expectWords(page, `conversation ${i + 1} (${guest}) on a small laptop, the booking open`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await both(page, 'thread');

    // A Booking.com conversation: the saved replies, one inserted that the conversation cannot fill.
    await rows(page).filter({ hasText: 'We will arrive late' }).click();
    await expect(page.locator('.p-toast-message')).toHaveCount(0);
    await page.getByTestId('saved-replies').click();
    const menu = page.locator('#saved-replies-menu');
    await expect(menu.getByText('Welcome')).toBeVisible();
    await expectWords(page, 'saved replies menu');
    await menu.getByText('Welcome').click();
    await expect(composer(page)).toHaveValue(/\{\{guest_first_name\}\}/);
    const ask = page.getByTestId('placeholder-ask');
    await expect(ask.getByLabel('Guest’s first name')).toBeVisible();
    await expect(ask.getByLabel('Arrival')).toBeVisible();
    await expectWords(page, 'a saved reply asking for what it cannot fill', PLACEHOLDERS);
    await both(page, 'ask');

    // The name given, the day not yet: the reply keeps only the day's placeholder, and the ask asks for it alone.
    await ask.getByLabel('Guest’s first name').fill('Marguerite');
    await ask.getByTestId('ask-fill').click();
    await expect(composer(page)).toHaveValue(/^Hi Marguerite, .*\{\{check_in\}\}/);
    await expect(ask.getByLabel('Guest’s first name')).toHaveCount(0);
    await expect(ask.getByLabel('Arrival')).toBeVisible();
    await expectWords(page, 'the ask for the day alone', PLACEHOLDERS);

    // The saved-replies dialog: the list, a reply's editor with what each channel fills, and a new one.
    await page.getByTestId('saved-replies').click();
    await menu.getByText('Manage saved replies…').click();
    const dialog = page.getByTestId('saved-replies-dialog');
    await expect(dialog.getByTestId('saved-reply').first()).toBeVisible();
    await expectWords(page, 'saved replies dialog', PLACEHOLDERS);
    await dialog
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await expect(dialog.getByTestId('channel-variables')).toContainText('Booking.com');
    await expectWords(page, 'a saved reply’s editor', PLACEHOLDERS);
    await both(page, 'saved-replies');
    await dialog.getByTestId('saved-reply-form').getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Add a saved reply' }).click();
    // Saved with nothing in it: the form says what is missing.
    await dialog.getByRole('button', { name: 'Add saved reply' }).click();
    await expect(dialog.getByTestId('saved-reply-form')).toBeVisible();
    await expectWords(page, 'a new saved reply, empty', PLACEHOLDERS);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // A payment link from the conversation: the dialog, then the payments beside the thread.
    await composer(page).fill('');
    await page.getByTestId('composer-payment-link').click();
    const link = page.getByTestId('link-dialog');
    await expect(link.getByTestId('link-order_id')).toHaveValue(/^IK-/);
    await expectWords(page, 'payment link dialog');
    // Created with nothing filled in: the dialog says what is missing, in words.
    await link.getByTestId('link-create').click();
    await expect(link.getByTestId('link-amount-error')).toBeVisible();
    await expectWords(page, 'payment link dialog with mistakes');
    await link.getByTestId('link-amount').fill('45.50');
    await link.getByTestId('link-create').click();
    await expect(link.getByTestId('link-result')).toContainText('€45.50');
    await link.getByTestId('link-insert').click();
    await expect(link).toBeHidden();
    const strip = page.getByTestId('thread-payments');
    await expect(strip.getByTestId('thread-payment')).toHaveAttribute('data-status', 'requested');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(composer(page)).toHaveValue('');
    await expect(page.getByTestId('message').last()).toContainText('€45.50');
    await expect(page.getByTestId('message').last().getByTestId('delivery')).toHaveAttribute('data-state', 'sent');
    await expectWords(page, 'a conversation with its payment and a sent reply');
    await both(page, 'thread-payments');

    // Search with results and with none.
    await search(page).fill('late');
    await expect(rows(page)).toHaveCount(1);
    await expectWords(page, 'search with a result');
    await search(page).fill('zzzqqq');
    await expect(rows(page)).toHaveCount(0);
    await expect(page.getByText(/No conversation/i).first()).toBeVisible();
    await expectWords(page, 'search with none');
    await both(page, 'search-none');
    await page.locator('.filters__reset').click();
    await expect(rows(page)).toHaveCount(6);

    // The filters: each channel, each property, unread, needs a reply.
    for (const channel of ['Airbnb', 'Booking.com', 'Expedia']) {
      await page.getByRole('group', { name: 'Channel' }).getByText(channel, { exact: true }).click();
      await expect(rows(page).first()).toContainText(channel);
      await expectWords(page, `${channel} conversations`);
    }
    await page.getByRole('group', { name: 'Channel' }).getByText('All', { exact: true }).click();
    await page.getByTestId('property-filter').click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await expectWords(page, 'the property filter open');
    await page.getByRole('option').nth(1).click();
    await expectWords(page, 'one property’s conversations');
    await page.locator('#filter-unread').click();
    await page.locator('#filter-needs-reply').click();
    await expectWords(page, 'unread and needing a reply');
    await both(page, 'filters');
    await page.locator('.filters__reset').click();
    await expect(rows(page)).toHaveCount(6);

    // Deliveries Su sent that could not be filed: the banner says what they looked like, in words.
    expect(await app.push({ event: 'booking_modified' })).toBe(200);
    const { channel_id, ...review } = currentReview({ review_title: 'The shower was cold' });
    void channel_id;
    expect(await app.push(review)).toBe(200);
    await expect(page.getByTestId('quarantine-banner')).toContainText('2 deliveries from Su could not be read');
    await expectWords(page, 'the banner of deliveries kept aside');
    await both(page, 'quarantine');

    // A guest message for a property Su does not know: the reply to it is refused, and says so in words.
    expect(await app.push(channelMessage('19', '5550001111', 'Do you have a cot?', { hotelid: 'IK-NOT-AT-SU' }))).toBe(
      200,
    );
    await rows(page).filter({ hasText: 'Do you have a cot?' }).click();
    await composer(page).fill('Yes, we do.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('delivery-problem')).toBeVisible({ timeout: 20_000 });
    await expectWords(page, 'a refused reply');
    await both(page, 'refused');
  } finally {
    await stopApp(app);
  }
});

test('every demo review, its reply box and a reply sent show words', async ({ page }) => {
  test.setTimeout(120_000);
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  try {
    await demoInbox(page, app);
    await page.getByTestId('tab-reviews').click();
    const list = page.getByTestId('review-row');
    await expect(list).toHaveCount(4);
    await expectWords(page, 'review list');

    for (let i = 0; i < 4; i++) {
      await list.nth(i).click();
      const review = page.getByTestId('review');
      await expect(review).toBeVisible();
      // Where it stands and what it is in words ("Published", "Guest review"), not Su's codes (published, in_review).
      await expect(review.getByTestId('review-status')).toHaveText(/^[A-Z][a-z]+( [a-z]+)*$/);
      await expect(review.getByTestId('review-kind')).toHaveText(/^[A-Z][a-z]+( [a-z]+)*$/);
      await expect(list.nth(i)).toContainText(/Airbnb|Booking\.com|Expedia/);
      await expectWords(page, `review ${i + 1} (${await review.getByTestId('review-kind').innerText()})`);
    }

    // One that takes a reply: the box, then the reply on its way and sent.
    const box = page.getByTestId('review-reply-box');
    let answerable = -1;
    for (let i = 0; i < 4 && answerable < 0; i++) {
      await list.nth(i).click();
      if (await box.isVisible()) answerable = i;
    }
    expect(answerable, 'a demo review takes a reply').toBeGreaterThanOrEqual(0);
    await expect(page.getByTestId('review-reply-rule')).toBeVisible();
    await expectWords(page, 'a review’s reply box');
    await both(page, 'review');
    await page.getByLabel('Your reply to the review').fill('Thank you, we are glad you liked it!');
    await page.getByRole('button', { name: 'Send reply' }).click();
    const sent = page.getByTestId('review-reply');
    await expect(sent).toContainText('Thank you, we are glad you liked it!');
    await expectWords(page, 'a review reply on its way');
    await expect(sent.getByTestId('delivery')).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
    await expect(page.getByTestId('reply-reason')).toBeVisible();
    await expectWords(page, 'a review replied to');
    await both(page, 'review-replied');

    // The review search with results and with none, and the score filter.
    const reviewSearch = page.getByLabel('Search reviews');
    await reviewSearch.fill('zzzqqq');
    await expect(list).toHaveCount(0);
    await expect(page.getByTestId('review-count')).toHaveText('0 reviews');
    await expectWords(page, 'review search with none');
    await reviewSearch.fill('');
    await expect(list).toHaveCount(4);
    await page.getByTestId('score-filter').click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await expectWords(page, 'the score filter open');
    await page.keyboard.press('Escape');
  } finally {
    await stopApp(app);
  }
});
