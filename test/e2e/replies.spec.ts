import { stopApp } from './app';
import { airbnbMessage, channelMessage, currentReview, startPushableApp, type PushableApp } from './deliveries';
import { composer, delivery, expect, lastMessage, openThread, reply, rows, shots, test } from './repliesFixture';
test('a reply on each channel reaches Su as a messagingAB request with the channel’s fields and line breaks', async ({
  page,
  su,
}) => {
  // The ids each channel requires (the thread's other ids go along too), and the line break: a
  // backslash and n (two characters) for Airbnb, two backslashes and n (three) for Booking.com and Expedia.
  const channels = [
    { channel: '244', name: 'Airbnb', ids: ['threadid', 'guestid', 'listingid'], br: '\\n' },
    { channel: '19', name: 'Booking.com', ids: ['bookingid'], br: '\\\\n' },
    { channel: '9', name: 'Expedia', ids: ['bookingid'], br: '\\\\n' },
  ];
  for (const [i, c] of channels.entries()) {
    const question = `A question on ${c.name}?`;
    const pushed = await su.control().push({ kind: 'message', channel: c.channel, message: question });
    await expect(rows(page).filter({ hasText: question })).toBeVisible();
    await openThread(page, question);
    await expect(page.getByText(`Reply on ${c.name}`)).toBeVisible();

    // Enter and Shift+Enter both start a new line; Ctrl+Enter sends.
    await composer(page).click();
    await page.keyboard.type('Hello!');
    await page.keyboard.press('Enter');
    await page.keyboard.type('See you soon,');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('Joseph');
    await page.keyboard.press('Control+Enter');
    await expect(lastMessage(page).locator('.message__bubble')).toHaveText('Hello!\nSee you soon,\nJoseph');
    await expect(delivery(page)).toHaveAttribute('data-state', 'sent');
    await expect(composer(page)).toHaveValue('');

    const sent = await su.sent('/jservice/messagingAB');
    expect(sent).toHaveLength(i + 1);
    const body = sent[i]!;
    expect(body).toMatchObject({ hotelid: pushed.body.hotelid, channelcode: c.channel, channelid: c.channel });
    for (const id of c.ids) expect(body[id], id).toBe(String(pushed.body[id]));
    expect(body.message).toBe(['Hello!', 'See you soon,', 'Joseph'].join(c.br));
    expect(body.message).not.toContain('\n');
  }
});

test('with Su unreachable a reply is queued, and sent exactly once when Su is back', async ({ page, su }) => {
  await su.control().push({ kind: 'message', channel: '19', message: 'Is there a lift?' });
  await openThread(page, 'Is there a lift?');
  await su.stop();

  await reply(page, 'Yes, a large one next to the stairs.');
  await expect(delivery(page)).toHaveText(/Queued — sends when Su is reachable/);
  await expect(page.getByTestId('outbox-unreachable')).toContainText('Su cannot be reached; replies are kept');

  await su.start();
  // The outbox backs off 2 s, 4 s, 8 s … with jitter while Su is away.
  await expect(delivery(page)).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(page.getByTestId('outbox-unreachable')).toHaveCount(0);
  await page.waitForTimeout(1000); // nothing more may follow
  const sent = await su.sent('/jservice/messagingAB');
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ message: 'Yes, a large one next to the stairs.' });
});

test('a reply Su refuses shows its message; Retry, Discard and Edit do what they say', async ({ app, page, su }) => {
  const pushed = await su.control().push({ kind: 'message', channel: '19', message: 'Can we park the car?' });
  const bookingid = String(pushed.body.bookingid);
  await openThread(page, 'Can we park the car?');
  await reply(page, 'Of course, in front of the house.');
  await expect(delivery(page)).toHaveAttribute('data-state', 'sent');

  // The conversation now names a property Su does not know: Su refuses what is sent in it.
  const moved = (hotelid: string, message: string) => channelMessage('19', bookingid, message, { hotelid });
  expect((await app.push(moved('NO-SUCH', 'And a bicycle?'))).status).toBe(200);
  await reply(page, 'Bicycles go in the shed.');
  await expect(delivery(page)).toHaveAttribute('data-state', 'failed');
  const problem = lastMessage(page).getByTestId('delivery-problem');
  await expect(problem).toContainText('No property found for given property id');
  await expect(page.getByTestId('outbox-failed')).toContainText('One reply was not confirmed as sent');
  await page.screenshot({ path: `${shots}/reply-states.png`, animations: 'disabled' });
  // From elsewhere, the banner takes the owner to the reply that did not go out.
  await page.getByTestId('tab-reviews').click();
  await page.getByTestId('outbox-failed-link').click();
  await expect(lastMessage(page)).toContainText('Bicycles go in the shed.');

  // Retry sends it again (Su refuses again).
  await problem.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(async () => (await su.sent('/jservice/messagingAB')).length).toBe(3);
  await expect(delivery(page)).toHaveAttribute('data-state', 'failed');

  await problem.getByRole('button', { name: 'Discard' }).click();
  await expect(delivery(page)).toHaveText(/Discarded — not sent/);
  await expect(page.getByTestId('outbox-failed')).toHaveCount(0);

  // Edit: once the conversation is right again, the corrected text goes out.
  await reply(page, 'The shed is behind the house.');
  await expect(delivery(page)).toHaveAttribute('data-state', 'failed');
  await lastMessage(page).getByRole('button', { name: 'Edit' }).click();
  expect((await app.push(moved('IK-DEMO-001', 'Where is the shed?'))).status).toBe(200);
  const editor = page.getByLabel('Edit the reply');
  await expect(editor).toHaveValue('The shed is behind the house.');
  await editor.fill('The shed is behind the house, the key is under the mat.');
  await page.getByRole('button', { name: 'Save and send' }).click();
  const edited = page.getByTestId('message').filter({ hasText: 'key is under the mat' });
  await expect(edited.getByTestId('delivery')).toHaveAttribute('data-state', 'sent');
  expect((await su.sent('/jservice/messagingAB')).at(-1)).toMatchObject({
    hotelid: 'IK-DEMO-001',
    bookingid,
    message: 'The shed is behind the house, the key is under the mat.',
  });
});

test('replies to a Booking.com review and a legacy Airbnb review reach Su and show as sent', async ({ page, su }) => {
  const current = await su.control().push({ kind: 'review', channel: '19' });
  const legacy = await su.control().push({ kind: 'legacy-review', channel: '244' });
  await page.getByTestId('tab-reviews').click();
  const list = page.getByTestId('review-row');
  await expect(list).toHaveCount(2);
  const answer = page.getByLabel('Your reply to the review');
  const sendReply = page.getByRole('button', { name: 'Send reply' });

  await list.filter({ hasText: String(current.body.review_title) }).click();
  await expect(page.getByTestId('review-reply-rule')).toContainText('one reply per review, and it cannot be edited');
  await answer.fill('Thank you for staying with us!\nWe hope to welcome you again.');
  await sendReply.click();
  const sentReply = page.getByTestId('review-reply');
  await expect(sentReply).toContainText('We hope to welcome you again.');
  await expect(sentReply.getByTestId('delivery')).toHaveAttribute('data-state', 'sent');
  await expect(page.getByTestId('reply-reason')).toContainText('Booking.com allows one reply per review');
  await expect(page.getByTestId('review-reply-box')).toHaveCount(0);
  await page.screenshot({ path: `${shots}/review-reply.png`, animations: 'disabled' });

  const review = legacy.body.review as Record<string, unknown>;
  await list.filter({ hasText: String(review.public_review) }).click();
  await expect(page.getByTestId('review-reply-rule')).toContainText('shown publicly under the review on Airbnb');
  await answer.fill('Thanks, it was a pleasure to host you.');
  await page.keyboard.press('Control+Enter');
  await expect(sentReply.getByTestId('delivery')).toHaveAttribute('data-state', 'sent');

  expect(await su.sent('/jservice/review/reply')).toEqual([
    {
      hotel_id: current.body.hotel_id,
      channel_id: '19',
      channel_property_id: current.body.channel_property_id,
      channel_review_id: current.body.channel_review_id,
      review_reply: 'Thank you for staying with us!\nWe hope to welcome you again.',
    },
  ]);
  expect(await su.sent('/jservice/OTA_ReplyReview')).toEqual([
    expect.objectContaining({
      hotelid: legacy.body.hotelcode,
      channelid: '244',
      reviewid: review.reviewid,
      listingid: review.listing_id,
      replytext: 'Thanks, it was a pleasure to host you.',
    }),
  ]);
});

test('drafts under a conversation and a review survive a restart; a conversation that cannot be answered says why', async ({
  page,
}) => {
  const first = await startPushableApp();
  let second: PushableApp | null = null;
  try {
    // A push without the property id: Su could not place a reply in it.
    expect((await first.push(airbnbMessage({ hotelid: null }))).status).toBe(200);
    await page.goto(first.url);
    await rows(page).first().click();
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeDisabled();
    await composer(page).fill('   ');
    await expect(send).toBeDisabled();
    await composer(page).fill('Hi Chris,\nthe parking is free.');
    await expect(page.getByTestId('draft-state')).toHaveText('Draft saved');
    // Under a review, too.
    expect((await first.push(currentReview({ review_title: 'Lovely stay' }))).status).toBe(200);
    await page.getByTestId('tab-reviews').click();
    await page.getByTestId('review-row').filter({ hasText: 'Lovely stay' }).click();
    await page.getByLabel('Your reply to the review').fill('Thank you, Anna!');
    await expect(page.getByTestId('review-draft-state')).toHaveText('Draft saved');
    await stopApp(first, false);

    second = await startPushableApp(first);
    await page.goto(`${second.url}#/inbox/reviews`);
    await page.getByTestId('review-row').filter({ hasText: 'Lovely stay' }).click();
    await expect(page.getByLabel('Your reply to the review')).toHaveValue('Thank you, Anna!');
    await page.getByTestId('tab-messages').click();
    await rows(page).first().click();
    await expect(composer(page)).toHaveValue('Hi Chris,\nthe parking is free.');
    await send.click();
    await expect(page.getByTestId('composer-error')).toHaveText(
      /This conversation cannot be answered.*did not include it/,
    );
    await expect(composer(page)).toHaveValue('Hi Chris,\nthe parking is free.');
  } finally {
    await stopApp(second ?? first);
  }
});

test('saved replies are filled in from the thread, and can be added, changed and deleted', async ({ app, page }) => {
  // An Airbnb enquiry: the guest has not booked, so Airbnb filters contact details.
  const enquiry = airbnbMessage({ bookingflag: 'T', message: 'Is the house free in July?' });
  enquiry.booking_details = {
    ...(enquiry.booking_details as object),
    reservation_confirmation_code: null,
    expected_payout_amount_accurate: null,
  };
  expect((await app.push(enquiry)).status).toBe(200);
  await page.goto(app.url);
  await openThread(page, 'Is the house free in July?');
  // The booking panel says it is an enquiry, with the asked-about dates and no payout or confirmation code.
  await expect(page.getByTestId('booking-enquiry')).toContainText('nothing is booked yet');
  await expect(page.getByTestId('booking-check-in')).toBeVisible();
  await expect(page.getByTestId('booking-payout')).toHaveCount(0);

  const savedReplies = page.getByTestId('saved-replies');
  const menu = page.locator('#saved-replies-menu');
  await savedReplies.click();
  await menu.getByText('Welcome').click();
  await expect(composer(page)).toHaveValue(
    /^Hi Chris, thank you for your message! We look forward to welcoming you at Modern housewith Parking on .*2021\.$/,
  );
  await page.keyboard.type(' Call me on +44 20 7946 0958 if anything is unclear.');
  await expect(page.getByTestId('composer-warnings')).toContainText(
    'Airbnb removes phone numbers from messages to guests who have not booked yet.',
  );
  await page.screenshot({ path: `${shots}/composer.png`, animations: 'disabled' });

  await savedReplies.click();
  await menu.getByText('Manage saved replies…').click();
  const dialog = page.getByTestId('saved-replies-dialog');
  await dialog.getByRole('button', { name: 'Add a saved reply' }).click();
  await dialog.getByLabel('Text', { exact: true }).fill('Hi {{guest_name}}, parking is free.');
  await dialog.getByRole('button', { name: 'Add saved reply' }).click();
  await expect(dialog.locator('#saved-reply-title-error')).toContainText('Give the saved reply a title.');
  await expect(dialog.locator('#saved-reply-body-error')).toContainText('Use only these variables');
  await dialog.getByLabel('Title').fill('Parking');
  await dialog
    .getByLabel('Text', { exact: true })
    .fill('Hi {{guest_first_name}}, parking is free at {{listing_name}}.');
  await dialog.getByRole('button', { name: 'Add saved reply' }).click();
  const saved = dialog.getByTestId('saved-reply');
  await expect(saved).toHaveCount(3);

  await dialog.getByRole('button', { name: 'Edit Welcome' }).click();
  await dialog.getByLabel('Title').fill('Welcome (short)');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(saved.filter({ hasText: 'Welcome (short)' })).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Delete Check-in details' }).click();
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(saved).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await composer(page).fill('');
  await savedReplies.click();
  await expect(menu.getByRole('menuitem')).toHaveText(['Parking', 'Welcome (short)', 'Manage saved replies…']);
  await menu.getByText('Parking').click();
  await expect(composer(page)).toHaveValue('Hi Chris, parking is free at Modern housewith Parking.');
});

/** Screenshots of the part at both window sizes: test-results/screenshots/replies-<name>-<width>.png. */
