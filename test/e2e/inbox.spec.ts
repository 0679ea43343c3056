import { expect } from './app';
import { closeToasts, navBadge, openInbox, push, rows, shots, test } from './inboxPage';
import { airbnbMessage, channelMessage, currentReview, legacyReview, REVIEW_EXPIRES } from './deliveries';

test('a message pushed on each channel appears in the open inbox with no reload, with the unread counts', async ({
  app,
  page,
}) => {
  await openInbox(page, app);
  await expect(page.getByTestId('messages-empty')).toContainText('No messages yet');
  await expect(page.getByTestId('messages-empty')).toContainText('built-in demo provider');
  await expect(page).toHaveTitle('Inbox · Innkeeper');
  await page.screenshot({ path: `${shots}/inbox-empty.png`, animations: 'disabled' });

  const pushes = [
    { body: airbnbMessage(), guest: 'Chris', channel: 'Airbnb' },
    {
      body: channelMessage('19', '4055123987', 'Can we check in late, around 23:00?'),
      // Booking.com and Expedia send no name: the booking number says who it is.
      guest: 'Booking 4055123987',
      channel: 'Booking.com',
    },
    {
      body: channelMessage('9', '7712004455', 'Is breakfast included in our rate?'),
      guest: 'Booking 7712004455',
      channel: 'Expedia',
    },
  ];
  for (const [i, p] of pushes.entries()) {
    await push(app, p.body);
    const row = rows(page).filter({ hasText: String(p.body.message) });
    // Pushed and acknowledged: on screen with no reload.
    await expect(row).toBeVisible();
    await expect(row).toContainText(p.guest);
    await expect(row).toContainText(p.channel);
    await expect(row).toContainText('Needs reply');
    await expect(row.getByTestId('row-guest')).not.toHaveText('Guest');
    await expect(navBadge(page)).toContainText(String(i + 1));
    await expect(page).toHaveTitle(`(${i + 1}) Inbox · Innkeeper`);
  }
  await expect(rows(page)).toHaveCount(3);
  // Newest first.
  await expect(rows(page).first()).toContainText('Expedia');
  await expect(page.getByTestId('tab-messages')).toContainText('3');
  await expect(page.getByTestId('thread-count')).toHaveText('3 conversations');
});

test('opening a thread shows the guest, the booking and the messages in order, and reads it', async ({ app, page }) => {
  await openInbox(page, app);
  await push(app, airbnbMessage());
  await push(
    app,
    airbnbMessage({ message: 'Hi Chris! Yes, there is free parking right in front.', message_type: 'property' }),
  );
  await push(
    app,
    airbnbMessage({
      message: 'Wonderful, thank you.\nHere is a photo of our car so you know it is us.',
      attachment: [{ attachment_id: 88123, mime_type: 'image/jpeg' }],
    }),
  );
  await expect(rows(page)).toHaveCount(1);
  const row = rows(page).first();
  await expect(row).toContainText('Modern housewith Parking');
  await expect(row.locator('.row__count')).toContainText('2');
  await expect(page).toHaveTitle('(1) Inbox · Innkeeper');

  await row.click();
  await expect(page).toHaveURL(/#\/inbox\/\d+$/);
  const thread = page.getByTestId('thread');
  await expect(thread.getByRole('heading', { name: 'Chris' })).toBeVisible();
  await expect(page.getByTestId('guest-about')).toHaveText(/England, United Kingdom · English/);
  await expect(page.getByTestId('thread-listing')).toContainText('Modern housewith Parking');
  await expect(thread).toContainText('Airbnb');
  await expect(page.getByTestId('booking-check-in')).toContainText(/7/);
  await expect(page.getByTestId('booking-check-in')).toContainText(/2021/);
  await expect(page.getByTestId('booking-check-out')).toContainText(/11/);
  await expect(page.getByTestId('booking-nights')).toHaveText('4');
  await expect(page.getByTestId('booking-guests')).toHaveText('3 guests (3 adults)');
  // Airbnb pays out in the host's payout currency, which Innkeeper does not know: no currency is guessed.
  await expect(page.getByTestId('booking-payout')).toHaveText(/^451[.,]00 \(in your Airbnb payout currency\)$/);
  await expect(page.getByTestId('booking-confirmation')).toHaveText('ABCAJKYSJ8');

  const messages = page.getByTestId('message');
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(0)).toHaveAttribute('data-author', 'guest');
  await expect(messages.nth(0)).toContainText('How acan we help you');
  await expect(messages.nth(1)).toHaveAttribute('data-author', 'host');
  await expect(messages.nth(1)).toContainText('You ·');
  await expect(messages.nth(2)).toContainText('Image (JPEG)');
  await expect(messages.nth(2)).toContainText('88123');

  // Read: the row, the badge and the title all say so.
  await expect(row.locator('.row__count')).toHaveCount(0);
  await expect(navBadge(page)).toHaveCount(0);
  await expect(page).toHaveTitle('Inbox · Innkeeper');
  await closeToasts(page);
  await page.screenshot({ path: `${shots}/thread.png`, animations: 'disabled' });

  // The thread's address opens it directly (a notification click lands here).
  await page.reload();
  await expect(page.getByTestId('thread').getByRole('heading', { name: 'Chris' })).toBeVisible();
});

test('filters and search narrow the list', async ({ app, page }) => {
  await openInbox(page, app);
  const bodies = [
    airbnbMessage(),
    airbnbMessage({ threadid: '991460001', message: 'Do you have towels and hairdryers?' }),
    channelMessage('19', '4055000001', 'Could we get extra towels for the sofa bed?'),
    channelMessage('19', '4055000002', 'We will arrive by train, is the station far?'),
    channelMessage('9', '7712000001', 'Is breakfast included in our rate?'),
    channelMessage('9', '7712000002', 'Thank you for a wonderful stay!'),
  ];
  for (const body of bodies) await push(app, body);
  await push(
    app,
    channelMessage('9', '7712000002', 'It was a pleasure, come back soon!', { message_type: 'property' }),
  );
  await expect(rows(page)).toHaveCount(6);

  // One conversation read, one answered.
  await rows(page).filter({ hasText: 'station far' }).click();
  await expect(page.getByTestId('thread')).toContainText('4055000002');
  await closeToasts(page);
  await page.screenshot({ path: `${shots}/inbox.png`, animations: 'disabled' });

  const channel = page.getByRole('group', { name: 'Channel' });
  await channel.getByText('Booking.com').click();
  await expect(rows(page)).toHaveCount(2);
  await channel.getByText('Expedia').click();
  await expect(rows(page)).toHaveCount(2);
  await channel.getByText('All').click();
  await expect(rows(page)).toHaveCount(6);

  await page.getByLabel('Unread', { exact: true }).check();
  await expect(rows(page)).toHaveCount(5);
  await expect(rows(page).filter({ hasText: 'station far' })).toHaveCount(0);
  await page.getByLabel('Unread', { exact: true }).uncheck();

  await page.getByLabel('Needs a reply', { exact: true }).check();
  await expect(rows(page)).toHaveCount(5);
  await expect(rows(page).filter({ hasText: 'come back soon' })).toHaveCount(0);
  await page.getByLabel('Needs a reply', { exact: true }).uncheck();

  // Full text over every message, not only the last one of each thread.
  await page.getByLabel('Search conversations').fill('towels');
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId('thread-count')).toHaveText('2 conversations');
  await page.getByLabel('Search conversations').fill('wonderful');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('come back soon');
  await page.getByLabel('Search conversations').fill('jacuzzi');
  await expect(page.getByTestId('messages-empty')).toContainText('No conversation mentions “jacuzzi”');
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(rows(page)).toHaveCount(6);
  await expect(page.getByLabel('Search conversations')).toHaveValue('');
});

test('a long list renders only the rows in view, pages in the rest while scrolling, and arrows move along', async ({
  app,
  page,
}) => {
  const THREADS = 250;
  for (let batch = 0; batch < THREADS; batch += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        push(app, channelMessage('19', String(4_100_000_000 + batch + i), `Question number ${batch + i}`)),
      ),
    );
  }
  await openInbox(page, app);
  await expect(page.getByTestId('thread-count')).toHaveText(`${THREADS} conversations`);
  const inPage = await rows(page).count();
  expect(inPage).toBeGreaterThan(5);
  expect(inPage).toBeLessThan(40);

  // Keyboard: down and up move between conversations, Enter opens one.
  await rows(page).first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows(page).first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/inbox\/\d+$/);

  // The end of the list: the first thread that arrived, fetched when it came into view.
  await page.getByTestId('thread-list').evaluate((el) => {
    const list = el as unknown as { scrollTop: number; scrollHeight: number };
    list.scrollTop = list.scrollHeight;
  });
  await expect(rows(page).filter({ hasText: 'Question number 0' })).toBeVisible();
  expect(await rows(page).count()).toBeLessThan(40);
});

test('a duplicate push shows one message', async ({ app, page }) => {
  await openInbox(page, app);
  const body = channelMessage('19', '4055777777', 'Is there a lift in the building?');
  await push(app, body);
  await push(app, body);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().click();
  await expect(page.getByTestId('message')).toHaveCount(1);
  await expect(page.getByTestId('booking-reference')).toHaveText('4055777777');
});

test('a review of each kind shows its details, and the reason when it cannot be answered', async ({ app, page }) => {
  await openInbox(page, app);
  await push(app, currentReview());
  await push(
    app,
    currentReview({
      channel_id: '9',
      channel_review_id: `9_${Date.now()}`,
      review_title: 'Comfortable, but noisy at night',
      review_description: 'Great beds and a friendly front desk.',
      review_negative_description: 'Street noise until late.',
      review_score: { overall: 7.5, cleanliness: 9, service: 8.5, comfort: null },
      review_date: '2025-02-14',
      is_eligible_to_respond: 'N',
    }),
  );
  await push(app, legacyReview());
  await push(
    app,
    legacyReview({
      reviewer_role: 'host',
      reviewee_role: 'guest',
      public_review: 'Maria left the house spotless, a lovely guest.',
      private_feedback: null,
    }),
  );
  await expect(page.getByTestId('tab-reviews')).toContainText('4');

  await page.getByTestId('tab-reviews').click();
  const list = page.getByTestId('review-row');
  await expect(list).toHaveCount(4);
  // Full-text search over review texts narrows the list, and clearing it brings everything back.
  await page.getByLabel('Search reviews').fill('hallway');
  await expect(list).toHaveCount(1);
  await expect(list).toContainText('A bright, quiet house');
  await page.getByLabel('Search reviews').fill('');
  await expect(list).toHaveCount(4);

  // Booking.com, from the provider's fixture: answerable, so nothing about replying is shown.
  await list.filter({ hasText: 'Great stay!' }).click();
  const review = page.getByTestId('review');
  await expect(review).toHaveAttribute('data-kind', 'current');
  await expect(page.getByTestId('review-title')).toHaveText('Great stay!');
  await expect(page.getByTestId('review-positive')).toContainText('Loved the location and service.');
  await expect(page.getByTestId('review-negative')).toContainText('Room was a bit small.');
  // Who wrote it and whom it is about: the name Su sends (reviewee_name) is the host's.
  await expect(page.getByTestId('review-reviewer')).toHaveText('Guest');
  await expect(page.getByTestId('review-reviewee')).toHaveText('Host (Vishal Potter)');
  await expect(page.getByTestId('review-status')).toHaveText('Published');
  await expect(page.getByTestId('review-date')).toContainText('2025');
  await expect(page.getByTestId('score')).toHaveCount(3);
  await expect(page.getByTestId('score').first()).toContainText('Overall');
  await expect(page.getByTestId('reply-reason')).toHaveCount(0);

  // Expedia, not eligible: the reason, and a score the guest left out shows as a dash.
  await list.filter({ hasText: 'noisy at night' }).click();
  await expect(page.getByTestId('reply-reason')).toHaveText('Expedia says this review cannot be answered.');
  await expect(page.getByTestId('score').filter({ hasText: 'Comfort' }).getByTestId('score-value')).toHaveText('—');
  await expect(page.getByTestId('score').filter({ hasText: 'Overall' }).getByTestId('score-value')).toHaveText('7.5');
  await page.screenshot({ path: `${shots}/review.png`, animations: 'disabled' });

  // Airbnb, legacy API: public text, private feedback (labelled as private), ratings, roles, dates.
  await list.filter({ hasText: 'A bright, quiet house' }).click();
  await expect(review).toHaveAttribute('data-kind', 'legacy');
  await expect(page.getByTestId('review-public')).toContainText('A bright, quiet house');
  await expect(page.getByTestId('review-private')).toContainText('only you can see this');
  await expect(page.getByTestId('review-private')).toContainText('hallway light');
  await expect(page.getByTestId('review-ratings')).toContainText('Cleanliness');
  await expect(page.getByTestId('review-reviewer')).toHaveText('Guest (Maria)');
  await expect(page.getByTestId('review-action')).toHaveText('Review published');
  await expect(page.getByTestId('review-submitted')).toContainText('2025');
  await expect(page.getByTestId('review-expires')).toContainText(REVIEW_EXPIRES.slice(0, 4));
  await expect(page.getByTestId('reply-reason')).toHaveCount(0);
  await page.screenshot({ path: `${shots}/review-legacy.png`, animations: 'disabled' });

  // The owner's own review of a guest cannot be answered.
  await list.filter({ hasText: 'a lovely guest' }).click();
  await expect(page.getByTestId('review-kind')).toHaveText('Your review of a guest');
  await expect(page.getByTestId('review-reviewer')).toHaveText('Host');
  await expect(page.getByTestId('reply-reason')).toHaveText(
    'Only reviews written by a guest can be answered on Airbnb.',
  );
  // Every review opened has been read.
  await expect(page.getByTestId('tab-reviews')).not.toContainText(/\d/);
  await expect(navBadge(page)).toHaveCount(0);
});

test('a toast announces a new message on any screen, and clicking it opens the thread', async ({ app, page }) => {
  await openInbox(page, app);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connection' }).click();
  await expect(page.getByRole('heading', { name: 'Connection' })).toBeVisible();

  await push(app, channelMessage('9', '7712999999', 'Hello, can we bring our dog?'));
  const toast = page.locator('.p-toast-message').filter({ hasText: 'New message from Booking 7712999999 · Expedia' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Hello, can we bring our dog?');
  await expect(navBadge(page)).toContainText('1');
  await expect(page).toHaveTitle('(1) Connection · Innkeeper');

  await toast.locator('.p-toast-summary').click();
  await expect(page).toHaveURL(/#\/inbox\/\d+$/);
  await expect(page.getByTestId('thread')).toContainText('can we bring our dog?');
  await expect(page).toHaveTitle('Inbox · Innkeeper');
});

test('in browser mode the inbox offers notifications, and one raised in the background opens its thread', async ({
  app,
  page,
}) => {
  // Chromium's permission prompt cannot be clicked by a test: stand in for the browser's Notification, and for a
  // window in the background.
  await page.addInitScript(() => {
    const shown: { title: string; body: string; click: () => void }[] = [];
    let permission = 'default';
    class FakeNotification {
      static get permission() {
        return permission;
      }
      static async requestPermission() {
        permission = 'granted';
        return permission;
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body: string }) {
        shown.push({ title, body: options.body, click: () => this.onclick?.() });
      }
      close() {}
    }
    const page = globalThis as unknown as { document: { hasFocus: () => boolean } };
    Object.assign(page, { Notification: FakeNotification, shownNotifications: shown });
    page.document.hasFocus = () => false;
  });
  await openInbox(page, app);
  const prompt = page.getByTestId('notification-prompt');
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(prompt).toHaveCount(0);

  await push(app, airbnbMessage({ message: 'We are outside, which door is it?' }));
  await expect(rows(page)).toHaveCount(1);
  const shown = await page.waitForFunction(() => {
    const list = (globalThis as unknown as { shownNotifications: { title: string; body: string }[] })
      .shownNotifications;
    return list.length > 0 ? { title: list[0]!.title, body: list[0]!.body } : null;
  });
  expect(await shown.jsonValue()).toEqual({ title: 'Chris · Airbnb', body: 'We are outside, which door is it?' });

  await page.evaluate(() =>
    (globalThis as unknown as { shownNotifications: { click: () => void }[] }).shownNotifications[0]!.click(),
  );
  await expect(page).toHaveURL(/#\/inbox\/\d+$/);
  await expect(page.getByTestId('thread')).toContainText('which door is it?');
});
