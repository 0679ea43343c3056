import { expect } from './app';
import { closeToasts, navBadge, openInbox, push, rows, shots, test } from './inboxPage';
import { airbnbMessage, channelMessage, currentReview, legacyReview } from './deliveries';

// Issue 13: the property and the guest on every row and header, the property and review filters, search beyond
// message text, triage (done, unread, drafts), the booking card on a small laptop, dates and money as read.

const shotA = (name: string) => `${shots}/A-${name}.png`;

test('every row and header names the property and the guest; the property filter and search by booking number', async ({
  app,
  page,
}) => {
  await openInbox(page, app);
  await push(app, channelMessage('19', '4012345678', 'Is there a lift?', { hotelid: 'IK-DEMO-001' }));
  await push(app, channelMessage('9', '7712340000', 'Is parking free?', { hotelid: 'IK-DEMO-002' }));
  await expect(rows(page)).toHaveCount(2);
  const lift = rows(page).filter({ hasText: 'Is there a lift?' });
  await expect(lift.getByTestId('row-guest')).toHaveText('Booking 4012345678');
  await expect(lift.getByTestId('row-property')).toContainText('Harbour View Guesthouse');
  await expect(rows(page).filter({ hasText: 'parking' }).getByTestId('row-property')).toContainText('Old Town Loft');
  await lift.click();
  await expect(page.getByTestId('thread').getByRole('heading', { name: 'Booking 4012345678' })).toBeVisible();
  await expect(page.getByTestId('thread-property')).toHaveText('Harbour View Guesthouse');

  // The property filter narrows the list to one property.
  await page.getByTestId('property-filter').click();
  await page.getByRole('option', { name: 'Old Town Loft' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is parking free?');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows(page)).toHaveCount(2);

  // Search finds a booking number and a property name, not only message text.
  await page.getByLabel('Search conversations').fill('4012345678');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is there a lift?');
  await page.getByLabel('Search conversations').fill('old town');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is parking free?');
});

test('triage: done until the guest writes again, unread for later, and a draft marker on the row', async ({
  app,
  page,
}) => {
  await openInbox(page, app);
  await push(app, channelMessage('19', '4012345678', 'Can we bring a dog?'));
  await push(app, channelMessage('9', '7712340000', 'Is parking free?', { hotelid: 'IK-DEMO-002' }));
  await expect(rows(page)).toHaveCount(2);
  await rows(page).filter({ hasText: 'bring a dog' }).click();
  await expect(page.getByTestId('thread')).toContainText('Can we bring a dog?');
  const id = /#\/inbox\/(\d+)$/.exec(page.url())![1]!;
  const dog = page.locator(`[data-testid="thread-row"][data-thread-id="${id}"]`);
  await expect(dog).toContainText('Needs reply');

  await page.getByTestId('mark-done').click();
  await expect(page.getByTestId('thread-done')).toBeVisible();
  await expect(dog).not.toContainText('Needs reply');
  await expect(dog).toContainText('Done');
  await page.getByLabel('Needs a reply', { exact: true }).check();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Is parking free?');
  await page.getByLabel('Needs a reply', { exact: true }).uncheck();
  await expect(rows(page)).toHaveCount(2);

  // The guest writes again: it needs a reply again.
  await push(app, channelMessage('19', '4012345678', 'It is a small dog.'));
  await expect(dog).toContainText('It is a small dog.');
  await expect(dog).toContainText('Needs reply');
  await expect(page.getByTestId('mark-done')).toBeVisible();

  // Unsent text: the row says a draft is kept.
  await page.getByPlaceholder(/^Write to/).fill('Dogs are welcome, ');
  await expect(dog.getByTestId('row-draft')).toBeVisible();
  await closeToasts(page);
  await page.screenshot({ path: shotA('triage-1280'), animations: 'disabled' });

  // Mark unread: the conversation closes and waits, unread, in the list.
  await page.getByTestId('mark-unread').click();
  await expect(page).toHaveURL(/#\/inbox$/);
  await expect(dog.locator('.row__count')).toContainText('1');
  await expect(navBadge(page)).toContainText('2');
  // Opening it reads it again.
  await dog.click();
  await expect(dog.locator('.row__count')).toHaveCount(0);
});

test('on a small laptop the booking card is one line that opens, and the messages and reply box stay in view', async ({
  app,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 680 });
  await openInbox(page, app);
  await push(app, airbnbMessage({ hotelid: 'IK-DEMO-001' }));
  await push(app, airbnbMessage({ hotelid: 'IK-DEMO-001', message: 'We arrive around six.' }));
  await rows(page).first().click();
  const toggle = page.getByTestId('booking-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('booking-summary')).toContainText('4 nights');
  await expect(page.getByTestId('booking-summary')).toContainText(/payout 451[.,]00/);
  await expect(page.getByTestId('booking-check-in')).toHaveCount(0);
  await expect(page.getByTestId('message').last()).toBeInViewport();
  await expect(page.getByPlaceholder(/^Write to/)).toBeInViewport();
  await closeToasts(page);
  await page.screenshot({ path: shotA('thread-1024'), animations: 'disabled' });

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('booking-check-in')).toContainText('2021');
  await expect(page.getByTestId('booking-payout')).toHaveText(/^451[.,]00 \(in your Airbnb payout currency\)$/);
  await page.screenshot({ path: shotA('thread-1024-booking-open'), animations: 'disabled' });

  // On a wide window the whole card shows, with no toggle.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('booking-toggle')).toHaveCount(0);
  await expect(page.getByTestId('booking-check-in')).toBeVisible();
  await page.screenshot({ path: shotA('thread-1280'), animations: 'disabled' });
});

test('reviews name their property and guest, filter by property, channel, unread, reply and score, and a date-only date has no time', async ({
  app,
  page,
}) => {
  await openInbox(page, app);
  await push(
    app,
    currentReview({
      hotel_id: 'IK-DEMO-002',
      channel_booking_id: '4099887766',
      review_title: 'Noisy at night',
      review_score: { overall: 4.5, cleanliness: 6 },
      review_date: '2025-02-14',
    }),
  );
  await push(
    app,
    currentReview({ hotel_id: 'IK-DEMO-001', review_title: 'Lovely stay', review_score: { overall: 9.2 } }),
  );
  await push(app, legacyReview());
  await page.getByTestId('tab-reviews').click();
  const list = page.getByTestId('review-row');
  await expect(list).toHaveCount(3);
  const noisy = list.filter({ hasText: 'Noisy at night' });
  await expect(noisy.getByTestId('review-row-property')).toContainText('Old Town Loft');
  await expect(noisy).toContainText('Booking 4099887766');
  await expect(noisy.getByTestId('review-row-score')).toHaveText('4.5 / 10');
  await expect(noisy).toContainText('Needs reply');
  // A review date that is a day only is shown as that day, never with a made-up "12:00".
  await expect(noisy.getByTestId('review-date-short')).toHaveText(/Feb 14|14 Feb/);
  await expect(noisy.getByTestId('review-date-short')).not.toHaveAttribute('title', /12:00/);
  await expect(list.filter({ hasText: 'A bright, quiet house' })).toContainText('Maria');

  await page.getByTestId('score-filter').click();
  await page.getByRole('option', { name: /^Low/ }).click();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('Noisy at night');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(list).toHaveCount(3);
  await page.getByRole('group', { name: 'Channel' }).getByText('Airbnb').click();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('A bright, quiet house');
  await page.getByRole('group', { name: 'Channel' }).getByText('All').click();
  await page.getByTestId('property-filter').click();
  await page.getByRole('option', { name: 'Harbour View Guesthouse' }).click();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('Lovely stay');
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await noisy.click();
  await expect(page.getByTestId('review-property')).toContainText('Old Town Loft');
  await expect(page.getByTestId('review-guest')).toContainText('Booking 4099887766');
  await page.getByLabel('Unread', { exact: true }).check();
  await expect(list).toHaveCount(2);
  await page.getByLabel('Unread', { exact: true }).uncheck();
  await page.getByLabel('Needs a reply', { exact: true }).check();
  await expect(list).toHaveCount(3);
  await page.getByLabel('Needs a reply', { exact: true }).uncheck();
  await page.screenshot({ path: shotA('reviews-1280'), animations: 'disabled' });
  await page.setViewportSize({ width: 1024, height: 680 });
  await page.screenshot({ path: shotA('reviews-1024'), animations: 'disabled' });
});

test('the inbox at 1024 × 680 and 1280 × 800, with conversations on three properties', async ({ app, page }) => {
  await openInbox(page, app);
  await push(app, airbnbMessage({ hotelid: 'IK-DEMO-001' }));
  await push(app, channelMessage('19', '4012345678', 'Can we bring a dog?', { hotelid: 'IK-DEMO-002' }));
  await push(app, channelMessage('9', '7712340000', 'Is parking free?', { hotelid: 'IK-DEMO-003' }));
  // The three rows first: a row arriving during the click moves the one clicked.
  await expect(rows(page)).toHaveCount(3);
  await rows(page).filter({ hasText: 'bring a dog' }).click();
  await expect(page.getByTestId('thread')).toBeVisible();
  await closeToasts(page);
  await page.screenshot({ path: shotA('inbox-1280'), animations: 'disabled' });
  await page.setViewportSize({ width: 1024, height: 680 });
  await expect(page.getByPlaceholder(/^Write to/)).toBeInViewport();
  await page.screenshot({ path: shotA('inbox-1024'), animations: 'disabled' });
});
