import type { Locator, Page } from '@playwright/test';
import { shootBoth as shootPair, stopApp } from './app';
import { channelMessage, currentReview, startPushableApp, type PushableApp } from './deliveries';
import { composer, expect, openThread, test } from './repliesFixture';

// The composer's checks as an owner meets them: placeholders named, a long paste kept, a refusal Retry cannot get
// past, and pushes kept in quarantine announced in the inbox.
const shootBoth = (page: Page, name: string, show?: Locator) => shootPair(page, `replies-${name}`, show);

test('a saved reply in a Booking.com conversation: what it cannot fill is named and Send waits; a long paste is counted and kept across a restart', async ({
  page,
}) => {
  const first = await startPushableApp();
  let second: PushableApp | null = null;
  try {
    expect((await first.push(channelMessage('19', '4711223344', 'When can we check in?'))).status).toBe(200);
    await page.goto(first.url);
    await openThread(page, 'When can we check in?');
    await page.getByTestId('saved-replies').click();
    await page.locator('#saved-replies-menu').getByText('Check-in details').click();
    // Booking.com's push names neither the guest nor the dates: both are left, named, and Send is held back.
    await expect(composer(page)).toHaveValue(/^Hi \{\{guest_first_name\}\}, check-in on \{\{check_in\}\} is from/);
    // Issue 26: each is asked for under the reply, by name.
    const placeholders = page.getByTestId('placeholder-ask');
    await expect(placeholders.getByLabel('Guest’s first name')).toBeVisible();
    await expect(placeholders.getByLabel('Arrival')).toBeVisible();
    const send = page.getByTestId('composer-send');
    await expect(send).toBeDisabled();
    await shootBoth(page, 'placeholders');
    // The saved-reply editor says what each channel fills.
    await page.getByTestId('saved-replies').click();
    await page.locator('#saved-replies-menu').getByText('Manage saved replies…').click();
    const dialog = page.getByTestId('saved-replies-dialog');
    await dialog.getByRole('button', { name: 'Edit Check-in details' }).click();
    // Every conversation fills the booking number; Booking.com the guest and stay once added to the booking.
    const fills = dialog.getByTestId('channel-variables');
    await expect(fills.locator('[data-channel="all"]')).toContainText('{{booking_number}}');
    await expect(fills.locator('[data-channel="19"]')).toContainText('{{guest_first_name}}');
    await shootBoth(page, 'saved-reply-editor', dialog.getByTestId('channel-variables'));
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await composer(page).fill('Hi Anna, check-in on 12 March is from 15:00.');
    await expect(placeholders).toHaveCount(0);
    await expect(send).toBeEnabled();

    // A 26,600-character paste: counted against the limit, not sendable, and kept as the draft.
    const pasted = 'Our house guide, pasted whole. '.repeat(860).slice(0, 26_600);
    await composer(page).fill(pasted);
    await expect(page.getByTestId('reply-counter')).toHaveText(/26,600 \/ 5,000/);
    await expect(page.getByTestId('reply-too-long')).toContainText('kept as your draft');
    await expect(send).toBeDisabled();
    await expect(page.getByTestId('draft-state')).toHaveText('Draft saved');
    await shootBoth(page, 'too-long');
    await stopApp(first, false);

    second = await startPushableApp(first);
    await page.goto(second.url);
    await openThread(page, 'When can we check in?');
    await expect(composer(page)).toHaveValue(pasted);
    await expect(page.getByTestId('reply-too-long')).toBeVisible();
  } finally {
    await stopApp(second ?? first);
  }
});

test('a review reply refused because the property is inactive (947) says what to do instead of Retry', async ({
  app,
  page,
  su,
}) => {
  // Mill Cottage (IK-DEMO-003) is inactive at Su.
  expect((await app.push(currentReview({ hotel_id: 'IK-DEMO-003', review_title: 'Quiet cottage' }))).status).toBe(200);
  await page.getByTestId('tab-reviews').click();
  await page.getByTestId('review-row').filter({ hasText: 'Quiet cottage' }).click();
  await page.getByLabel('Your reply to the review').fill('Thank you for staying with us!');
  await page.getByTestId('review-reply-send').click();
  const reply = page.getByTestId('review-reply');
  await expect(reply.getByTestId('delivery')).toHaveAttribute('data-state', 'failed');
  await expect(page.getByTestId('reply-reason')).not.toContainText('replied already');
  await expect(page.getByTestId('reply-reason')).toContainText('not published');
  await expect(reply.getByTestId('delivery-instead')).toContainText('Booking.com extranet');
  await expect(reply.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  expect(await su.sent('/review/reply')).toHaveLength(1);
  await shootBoth(page, 'review-947', reply.getByTestId('delivery-problem'));

  await reply.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('review-reply-box')).toBeVisible();
  await expect(page.getByTestId('reply-reason')).toHaveCount(0);
});

test('pushes kept in quarantine are announced in the inbox, with what they looked like, and shown on Connection', async ({
  app,
  page,
}) => {
  await page.goto(app.url);
  await expect(page.getByTestId('quarantine-banner')).toHaveCount(0);
  expect((await app.push({ event: 'booking_modified' })).status).toBe(200);
  // A real guest review that does not fit the review's shape (it names no channel).
  const { channel_id, ...review } = currentReview({ review_title: 'The shower was cold' });
  void channel_id;
  expect((await app.push(review)).status).toBe(200);
  const banner = page.getByTestId('quarantine-banner');
  await expect(banner).toContainText('2 deliveries from Su could not be read');
  await expect(banner).toContainText('a guest review and one other');
  await shootBoth(page, 'quarantine-banner');
  await banner.getByRole('link', { name: 'Connection screen' }).click();
  await expect(page.getByTestId('quarantine-list')).toContainText('The shower was cold');
  await shootBoth(page, 'quarantine-connection', page.getByTestId('quarantine-list'));
});
