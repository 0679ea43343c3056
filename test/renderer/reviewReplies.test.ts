import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CurrentReviewItem, ReviewItem } from '@shared/inbox';
import { ok } from '@shared/result';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import ReviewView from '@renderer/features/inbox/reviews/ReviewView.vue';
import { currentSides } from '@renderer/features/inbox/reviews/reviewFacts';
import { installFakeApi, settle } from './fakeApi';

// A review's screen: who wrote it and about whom, the reply box, and what shows once the review has its reply.
const REPLIED = 'You have replied to this review already: a review takes one public reply, shown under it on Expedia.';

const expedia = (over: Partial<CurrentReviewItem> = {}): ReviewItem => ({
  id: 7,
  kind: 'current',
  channel: '9',
  channelName: 'Expedia',
  providerReviewId: '9_7',
  hotelId: 'IK-DEMO-002',
  propertyName: 'Old Town Loft',
  guestLabel: 'Booking 8564406420',
  overallScore: 9.5,
  needsReply: true,
  receivedAt: 1,
  unread: false,
  reply: { allowed: true },
  replies: [],
  draft: null,
  detail: {
    title: 'Great loft, tricky stairs',
    positive: 'Beautiful space.',
    negative: null,
    scores: { overall: 9.5 },
    status: 'published',
    date: '2026-11-20',
    type: 'guest_to_host',
    eligibleToReply: true,
    revieweeName: 'Maria Jensen',
    channelPropertyId: 'EXP-1',
    bookingId: '8564406420',
  },
  ...over,
});

beforeEach(() => {
  setActivePinia(createPinia());
  document.body.innerHTML = '';
});

/** The review's screen, on a fake core whose list holds `item` (`core.now` replaces what it holds). */
async function open(item: ReviewItem) {
  let held = item;
  const core = installFakeApi({
    'inbox.reviews': () => ok([held]),
    'inbox.saveReviewDraft': () => ok({ savedAt: 1 }),
  });
  const inbox = useInboxStore();
  await inbox.showReview(item.id);
  const wrapper = mount(ReviewView, { global: { plugins: [PrimeVue] }, attachTo: document.body });
  await flushPromises();
  return { core: { ...core, now: (next: ReviewItem) => (held = next) }, wrapper };
}

describe('a review’s reply', () => {
  it('the box closes once the reply is written: the reply shows where it is, with why there is no second box', async () => {
    const { core, wrapper } = await open(expedia());
    expect(wrapper.find('[data-testid="review-reply-rule"]').text()).toBe(
      'Your reply is shown publicly under the review on Expedia. A review takes one reply.',
    );
    await wrapper.get('textarea').setValue('Thank you, Pieter!');
    await wrapper.get('[data-testid="review-reply-send"]').trigger('click');
    await settle();
    const [call] = core.pending('inbox.replyToReview');
    expect(call!.args).toEqual({ reviewId: 7, body: 'Thank you, Pieter!' });
    const replied = expedia({
      needsReply: false,
      reply: { allowed: false, reason: REPLIED },
      replies: [
        { id: 1, body: 'Thank you, Pieter!', createdAt: 2, delivery: { outboxId: 3, state: 'queued', error: null } },
      ],
    });
    core.now(replied);
    call!.answer(ok(replied));
    await flushPromises();
    expect(wrapper.find('textarea').exists()).toBe(false);
    expect(wrapper.find('[data-testid="review-reply-box"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="review-reply"]').text()).toContain('Thank you, Pieter!');
    expect(wrapper.get('[data-testid="review-reply"] [data-testid="delivery"]').attributes('data-state')).toBe(
      'queued',
    );
    // Said once, with the reply (not above the review as for a review that cannot be answered at all).
    const reasons = wrapper.findAll('[data-testid="reply-reason"]');
    expect(reasons.map((r) => r.text())).toEqual([REPLIED]);
    expect(wrapper.get('.replies').find('[data-testid="reply-reason"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('a review that cannot be answered says why above it, and offers no box', async () => {
    const reason = 'Expedia says this review cannot be answered.';
    const { wrapper } = await open(expedia({ reply: { allowed: false, reason }, needsReply: false }));
    expect(wrapper.findAll('[data-testid="reply-reason"]').map((r) => r.text())).toEqual([reason]);
    expect(wrapper.find('.replies').exists()).toBe(false);
    expect(wrapper.find('textarea').exists()).toBe(false);
    wrapper.unmount();
  });
  it('two replies an earlier version queued are both shown, the copy that was not sent with why', async () => {
    const notSent =
      'Not sent: your earlier reply to this review went out already, and a review takes one public reply. Discard this copy.';
    const { wrapper } = await open(
      expedia({
        needsReply: false,
        reply: { allowed: false, reason: REPLIED },
        replies: [
          { id: 1, body: 'Thank you!', createdAt: 2, delivery: { outboxId: 3, state: 'sent', error: null } },
          {
            id: 2,
            body: 'Thank you so much!',
            createdAt: 3,
            delivery: {
              outboxId: 4,
              state: 'failed',
              error: { code: 'validation', message: notSent, retryable: false },
            },
          },
        ],
      }),
    );
    expect(wrapper.get('#review-replies-title').text()).toBe('Your replies');
    const shown = wrapper.findAll('[data-testid="review-reply"]');
    expect(shown.map((r) => r.find('.reply__body').text())).toEqual(['Thank you!', 'Thank you so much!']);
    expect(shown[1]!.text()).toContain(notSent);
    expect(wrapper.find('textarea').exists()).toBe(false);
    wrapper.unmount();
  });
});

describe('who wrote a Booking.com or Expedia review, and about whom', () => {
  it('the named person is the host reviewed, never taken for the guest', async () => {
    const { wrapper } = await open(expedia());
    expect(wrapper.get('[data-testid="review-reviewer"]').text()).toBe('Guest');
    expect(wrapper.get('[data-testid="review-reviewee"]').text()).toBe('Host (Maria Jensen)');
    expect(wrapper.text()).not.toContain('Review of');
    wrapper.unmount();
  });

  it('reads both sides from the review’s type; the API serves guests’ reviews of the host', () => {
    expect(currentSides({ type: 'guest_to_host', revieweeName: 'Maria Jensen' })).toEqual({
      by: 'Guest',
      about: 'Host (Maria Jensen)',
    });
    expect(currentSides({ type: null, revieweeName: null })).toEqual({ by: 'Guest', about: 'Host' });
    expect(currentSides({ type: 'host_to_guest', revieweeName: 'Pieter' })).toEqual({
      by: 'Host',
      about: 'Guest (Pieter)',
    });
    expect(currentSides({ type: 'something else', revieweeName: null })).toEqual({ by: 'Guest', about: 'Host' });
  });
});
