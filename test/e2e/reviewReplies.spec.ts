import type { Page } from '@playwright/test';
import { expect, shots, test } from './repliesFixture';
import { expectWords } from './words';

/** Whether the page itself scrolls (a second scrollbar beside the review pane's own). */
const pageScrolls = (page: Page) =>
  page.evaluate(() => {
    // In the page (browser globals), not in Node.
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollHeight: number; clientHeight: number } } }
    ).document.documentElement;
    return root.scrollHeight > root.clientHeight;
  });

const SIZES = [
  { width: 1280, height: 800, name: '' },
  { width: 1024, height: 680, name: '-1024' },
] as const;

test('an Expedia and an Airbnb review take one reply: queued while Su is away, sent once, and no second box', async ({
  page,
  su,
}) => {
  const expedia = await su.control().push({ kind: 'review', channel: '9' });
  const airbnb = await su.control().push({ kind: 'legacy-review', channel: '244' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('tab-reviews').click();
  const list = page.getByTestId('review-row');
  await expect(list).toHaveCount(2);
  const answer = page.getByLabel('Your reply to the review');
  const box = page.getByTestId('review-reply-box');
  const sentReply = page.getByTestId('review-reply');
  const reason = page.getByTestId('reply-reason');

  // Who wrote the review and whom it is about: the name Su sends is the host's, not the guest's.
  await list.filter({ hasText: String(expedia.body.review_title) }).click();
  await expect(page.getByTestId('review-reviewer')).toHaveText('Guest');
  await expect(page.getByTestId('review-reviewee')).toHaveText(`Host (${String(expedia.body.reviewee_name)})`);
  await expect(page.getByTestId('review-reply-rule')).toHaveText(
    'Your reply is shown publicly under the review on Expedia. A review takes one reply.',
  );
  // The reply box below the pane's fold scrolls with the pane, never the page.
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await pageScrolls(page), `${size.width}×${size.height}`).toBe(false);
  }
  await page.setViewportSize(SIZES[0]);

  await su.stop();
  await answer.fill('Thank you, we are glad you liked the loft!');
  await page.getByRole('button', { name: 'Send reply' }).click();
  // The box closes at once; the reply shows as queued, and why there is no second one.
  await expect(box).toHaveCount(0);
  await expect(sentReply).toContainText('Thank you, we are glad you liked the loft!');
  await expect(sentReply.getByTestId('delivery')).toHaveText(/Queued — sends when Su is reachable/);
  // Issue 26: the queued reply and its review read as words (the demo's Su answers at once, so it is scanned here).
  await expectWords(page, 'a queued review reply');
  await expect(reason).toHaveText(
    'You have replied to this review already: a review takes one public reply, shown under it on Expedia.',
  );

  const review = airbnb.body.review as Record<string, unknown>;
  await list.filter({ hasText: String(review.public_review) }).click();
  await expect(page.getByTestId('review-reply-rule')).toContainText('shown publicly under the review on Airbnb');
  await answer.fill('Thanks, it was a pleasure to host you.');
  await page.keyboard.press('Control+Enter');
  await expect(box).toHaveCount(0);
  await expect(sentReply.getByTestId('delivery')).toHaveText(/Queued — sends when Su is reachable/);
  await expect(reason).toContainText('You have replied to this review already');

  await su.start();
  // The outbox backs off 2 s, 4 s, 8 s … with jitter while Su is away.
  await expect(sentReply.getByTestId('delivery')).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await list.filter({ hasText: String(expedia.body.review_title) }).click();
  await expect(sentReply).toHaveCount(1);
  await expect(sentReply.getByTestId('delivery')).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(box).toHaveCount(0);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await pageScrolls(page), `${size.width}×${size.height}`).toBe(false);
    await sentReply.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/review-replied${size.name}.png`, animations: 'disabled' });
  }
  await page.waitForTimeout(1000); // nothing more may follow
  expect(await su.sent('/jservice/review/reply')).toEqual([
    expect.objectContaining({ channel_id: '9', review_reply: 'Thank you, we are glad you liked the loft!' }),
  ]);
  expect(await su.sent('/jservice/OTA_ReplyReview')).toEqual([
    expect.objectContaining({ reviewid: review.reviewid, replytext: 'Thanks, it was a pleasure to host you.' }),
  ]);
});
