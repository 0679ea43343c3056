import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InboxCounts, ReviewItem, ThreadDetail } from '@shared/inbox';
import { ok } from '@shared/result';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { installFakeApi, settle } from './fakeApi';

const counts: InboxCounts = { unreadThreads: 0, unreadReviews: 0, quarantined: 0 };

/** A read thread whose messages are `bodies`. */
function thread(id: number, ...bodies: string[]): ThreadDetail {
  return {
    id,
    channel: '244',
    channelName: 'Airbnb',
    guestName: `Guest ${id}`,
    guestLabel: `Guest ${id}`,
    propertyName: null,
    listingName: null,
    preview: bodies.at(-1) ?? null,
    lastMessageAt: 1,
    unread: 0,
    needsReply: false,
    checkIn: null,
    checkOut: null,
    done: false,
    hasDraft: false,
    hotelId: null,
    listingId: null,
    bookingId: null,
    threadRef: null,
    guestId: null,
    bookingFlag: null,
    guest: null,
    booking: null,
    messages: bodies.map((body, i) => ({
      id: i + 1,
      author: 'guest',
      body,
      sentAt: i,
      attachments: [],
      delivery: null,
    })),
    draft: null,
    added: null,
  };
}

function review(id: number, title: string): ReviewItem {
  return {
    id,
    kind: 'current',
    channel: '19',
    channelName: 'Booking.com',
    providerReviewId: `19_${id}`,
    hotelId: null,
    propertyName: null,
    guestLabel: null,
    overallScore: null,
    needsReply: true,
    receivedAt: 1,
    unread: false,
    reply: { allowed: true },
    replies: [],
    draft: null,
    detail: {
      title,
      positive: null,
      negative: null,
      scores: {},
      status: null,
      date: null,
      type: null,
      eligibleToReply: null,
      revieweeName: null,
      channelPropertyId: null,
      bookingId: null,
    },
  };
}

describe('the inbox store shows the newest answer', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the thread opened last when the one opened before it answers later', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    const openingA = inbox.openThread(1);
    const openingB = inbox.openThread(2);
    const [a, b] = core.pending('inbox.thread');
    expect([a?.args, b?.args]).toEqual([{ id: 1 }, { id: 2 }]);

    b!.answer(ok(thread(2, 'From B')));
    await settle();
    a!.answer(ok(thread(1, 'From A')));
    await Promise.all([openingA, openingB]);

    expect(inbox.openId).toBe(2);
    expect(inbox.thread?.id).toBe(2);
    expect(inbox.thread?.messages.map((m) => m.body)).toEqual(['From B']);
    expect(inbox.threadLoading).toBe(false);
  });

  it('keeps a newer load of the open thread when an older load of it answers last', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    inbox.listen();
    const opening = inbox.openThread(7);
    // A reply moved on while the thread was loading: the core says so, and the thread is loaded again.
    core.emit('inbox.changed', { threadId: 7, reviewId: null, counts });
    const [first, second] = core.pending('inbox.thread');

    second!.answer(ok(thread(7, 'Hello', 'Your reply')));
    await settle();
    first!.answer(ok(thread(7, 'Hello')));
    await opening;
    await settle();

    expect(inbox.thread?.messages.map((m) => m.body)).toEqual(['Hello', 'Your reply']);
  });

  it('shows the thread answered when nothing newer was asked for', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    const opening = inbox.openThread(3);
    core.pending('inbox.thread')[0]!.answer(ok(thread(3, 'Only answer')));
    await opening;
    expect(inbox.thread?.messages.map((m) => m.body)).toEqual(['Only answer']);
  });

  it('lists the reviews of the newest search when an older search answers last', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    inbox.reviewSearch = 'break';
    const older = inbox.loadReviews();
    inbox.reviewSearch = 'breakfast';
    const newer = inbox.loadReviews();
    const [first, second] = core.pending('inbox.reviews');
    expect([first?.args, second?.args]).toEqual([{ search: 'break' }, { search: 'breakfast' }]);

    second!.answer(ok([review(2, 'Great breakfast')]));
    await newer;
    first!.answer({ ok: false, error: { code: 'network', message: 'Too late', retryable: true } });
    await older;

    expect(inbox.reviews?.map((r) => r.id)).toEqual([2]);
    expect(inbox.reviewsError).toBeNull();
    expect(inbox.reviewsLoading).toBe(false);
  });

  it('saves a reply box’s draft through the store and says whether it was saved', async () => {
    installFakeApi({
      'inbox.saveDraft': () => ok({ savedAt: 1 }),
      'inbox.saveReviewDraft': () => ({ ok: false, error: { code: 'internal', message: 'Disk full' } }),
    });
    const inbox = useInboxStore();
    expect(await inbox.saveDraft(1, 'Hi')).toBe(true);
    expect(await inbox.saveReviewDraft(2, 'Thanks')).toBe(false);
  });
});
