import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CurrentReviewItem, InboxCounts, LegacyReviewItem, ThreadSummary } from '@shared/inbox';
import { ok } from '@shared/result';
import { payoutText, relativeDay } from '@renderer/features/inbox/format';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { reviewDateText, reviewShortDate, scoreText } from '@renderer/features/inbox/reviews/reviewFacts';
import { installFakeApi, settle } from './fakeApi';

// Issue 13 in the renderer: triage and drafts in the list, the filters the store sends, dates and money as read.

const counts = (unreadThreads = 0): InboxCounts => ({ unreadThreads, unreadReviews: 0, quarantined: 0 });

const row = (id: number, over: Partial<ThreadSummary> = {}): ThreadSummary => ({
  id,
  channel: '19',
  channelName: 'Booking.com',
  guestName: null,
  guestLabel: `Booking 40${id}`,
  hotelId: 'H1',
  propertyName: 'Harbour View',
  listingName: null,
  preview: 'Hello',
  lastMessageAt: 1,
  unread: 0,
  needsReply: true,
  checkIn: null,
  checkOut: null,
  done: false,
  hasDraft: false,
  ...over,
});

async function listOf(rows: ThreadSummary[]) {
  const core = installFakeApi({
    'inbox.threads': () => ok({ total: rows.length, more: false, offset: 0, threads: rows }),
    'inbox.saveDraft': () => ok({ savedAt: 1 }),
    'inbox.markThreadDone': () => ok(counts(1)),
    'inbox.markThreadUnread': () => ok(counts(1)),
  });
  const inbox = useInboxStore();
  await inbox.loadList();
  return { core, inbox };
}

describe('triage in the list', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('a conversation marked done leaves "needs a reply" in its row at once', async () => {
    const { inbox } = await listOf([row(1), row(2)]);
    expect(await inbox.markDone(1)).toBeNull();
    expect(inbox.rows[0]).toMatchObject({ needsReply: false, done: true });
    expect(inbox.rows[1]).toMatchObject({ needsReply: true, done: false });
    expect(inbox.counts?.unreadThreads).toBe(1);
  });

  it('marking the open conversation unread closes it first, so it is not read again on sight', async () => {
    const { core, inbox } = await listOf([row(1)]);
    void inbox.openThread(1);
    expect(inbox.openId).toBe(1);
    expect(await inbox.markUnread(1)).toBeNull();
    expect(inbox.openId).toBeNull();
    expect(inbox.rows[0]!.unread).toBe(1);
    // The load that was under way answers late: it is not shown, and nothing marks the thread read.
    core.pending('inbox.thread')[0]?.answer(ok({ ...row(1, { unread: 1 }) } as never));
    await settle();
    expect(core.pending('inbox.markThreadRead')).toHaveLength(0);
    expect(inbox.thread).toBeNull();
  });

  it('a saved draft puts the draft marker on its row; an emptied one takes it off', async () => {
    const { inbox } = await listOf([row(1)]);
    expect(await inbox.saveDraft(1, 'Dear guest')).toBe(true);
    expect(inbox.rows[0]!.hasDraft).toBe(true);
    await inbox.saveDraft(1, '   ');
    expect(inbox.rows[0]!.hasDraft).toBe(false);
  });
});

describe('the filters the store asks for', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('the property narrows conversations and reviews; the review filters go with the search', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    inbox.hotelId = 'IK-DEMO-002';
    void inbox.loadList();
    expect(core.pending('inbox.threads')[0]!.args).toMatchObject({ hotelId: 'IK-DEMO-002' });

    inbox.reviewSearch = ' noisy ';
    inbox.reviewChannel = '19';
    inbox.reviewUnreadOnly = true;
    inbox.reviewNeedsReplyOnly = true;
    inbox.reviewScore = 'low';
    void inbox.loadReviews();
    expect(core.pending('inbox.reviews').at(-1)!.args).toEqual({
      search: 'noisy',
      hotelId: 'IK-DEMO-002',
      channel: '19',
      unreadOnly: true,
      needsReplyOnly: true,
      score: 'low',
    });
    expect(inbox.reviewsFiltered).toBe(true);
    inbox.clearReviewFilters();
    void inbox.loadReviews();
    expect(core.pending('inbox.reviews').at(-1)!.args).toEqual({});
  });
});

describe('dates and money as people read them', () => {
  const review = {
    id: 1,
    channel: '19',
    channelName: 'Booking.com',
    providerReviewId: 'x',
    hotelId: null,
    propertyName: null,
    guestLabel: null,
    overallScore: 8.6,
    needsReply: false,
    receivedAt: Date.UTC(2025, 5, 1),
    unread: false,
    reply: { allowed: true as const },
    replies: [],
    draft: null,
  };
  const current = (date: string | null): CurrentReviewItem => ({
    ...review,
    kind: 'current',
    detail: {
      title: null,
      positive: null,
      negative: null,
      scores: {},
      status: null,
      date,
      type: null,
      eligibleToReply: null,
      revieweeName: null,
      channelPropertyId: null,
      bookingId: null,
    },
  });

  it('a date-only review date is a day, never "12:00"', () => {
    const item = current('2025-03-01');
    expect(reviewDateText(item)).not.toMatch(/\d{1,2}:\d{2}/);
    expect(reviewDateText(item)).toMatch(/1 Mar 2025/);
    const sameDay = new Date(2025, 2, 1, 18, 0).getTime();
    expect(reviewShortDate(item, sameDay)).toBe('Today');
    expect(reviewShortDate(item, new Date(2025, 2, 2, 9).getTime())).toBe('Yesterday');
    // A moment keeps its time.
    expect(reviewDateText(current('2025-03-01T09:30:00Z'))).toMatch(/\d{2}:\d{2}/);
  });

  it('days read as the list writes them', () => {
    const now = new Date(2025, 5, 18, 15).getTime();
    expect(relativeDay(new Date(2025, 5, 18).getTime(), now)).toBe('Today');
    expect(relativeDay(new Date(2025, 5, 10).getTime(), now)).toBe('10 Jun');
    expect(relativeDay(new Date(2024, 5, 10).getTime(), now)).toBe('10 Jun 2024');
  });

  it('scores on the channel’s own scale', () => {
    expect(scoreText(current(null))).toBe('8.6 / 10');
    const airbnb = { ...review, overallScore: 9, kind: 'legacy' } as unknown as LegacyReviewItem;
    expect(scoreText(airbnb)).toBe('4.5 ★');
    expect(scoreText({ ...current(null), overallScore: null })).toBeNull();
  });

  it('an Airbnb payout with no currency guessed: it is in the host’s payout currency', () => {
    expect(payoutText('451.00')).toMatch(/^451[.,]00 \(in your Airbnb payout currency\)$/);
    expect(payoutText('451')).not.toMatch(/[€£$]|EUR/);
    expect(payoutText('about 451')).toBe('about 451 (in your Airbnb payout currency)');
    expect(payoutText(null)).toBe('—');
    expect(payoutText('451.00', true)).toMatch(/^payout 451[.,]00$/);
  });
});
