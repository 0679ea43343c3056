import { describe, expect, it } from 'vitest';
import type { CurrentReviewDetail, CurrentReviewItem, LegacyReviewDetail, LegacyReviewItem } from '@shared/inbox';
import {
  currentReview,
  legacyReview,
  reviewDate,
  reviewerName,
  reviewKind,
  reviewPreview,
  reviewStatus,
} from '@renderer/features/inbox/reviews/reviewFacts';

const currentDetail = (d: Partial<CurrentReviewDetail> = {}): CurrentReviewDetail => ({
  title: null,
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
  ...d,
});
const legacyDetail = (d: Partial<LegacyReviewDetail> = {}): LegacyReviewDetail => ({
  action: null,
  publicReview: null,
  privateFeedback: null,
  ratings: null,
  reviewerRole: null,
  revieweeRole: null,
  reviewerId: null,
  hidden: null,
  submitted: null,
  submittedAt: null,
  expiresAt: null,
  bookingId: null,
  listingId: null,
  guestFirstName: null,
  ...d,
});
const base = {
  id: 1,
  channelName: 'x',
  providerReviewId: 'p',
  hotelId: null,
  propertyName: null,
  guestLabel: null,
  overallScore: null,
  needsReply: false,
  receivedAt: 1_700_000_000_000,
  unread: false,
  reply: { allowed: true as const },
  replies: [],
  draft: null,
};
const current = (d: Partial<CurrentReviewDetail> = {}): CurrentReviewItem => ({
  ...base,
  kind: 'current',
  channel: '19',
  detail: currentDetail(d),
});
const legacy = (d: Partial<LegacyReviewDetail> = {}): LegacyReviewItem => ({
  ...base,
  kind: 'legacy',
  channel: '244',
  detail: legacyDetail(d),
});

describe('a current review (Booking.com, Expedia)', () => {
  it('lists its scores with “overall” first, reading scores sent as text and dropping ones that are not numbers', () => {
    const review = currentReview(
      currentDetail({
        title: 'Lovely',
        positive: '  ',
        scores: { staff: 9, overall: 8.5, clean: '7.5', value: 'n/a', comfort: null } as unknown as Record<
          string,
          number | null
        >,
      }),
    );
    expect(review.scores).toEqual([
      { category: 'overall', score: 8.5 },
      { category: 'staff', score: 9 },
      { category: 'clean', score: 7.5 },
      { category: 'value', score: null },
      { category: 'comfort', score: null },
    ]);
    expect(review.title).toBe('Lovely');
    expect(review.positive).toBeNull(); // blank text counts as none
  });

  it('copes with scores that are missing or not an object', () => {
    expect(currentReview(currentDetail({ scores: null as unknown as Record<string, number> })).scores).toEqual([]);
    expect(currentReview(currentDetail({ scores: 'high' as unknown as Record<string, number> })).scores).toEqual([]);
  });
});

describe('a legacy Airbnb review', () => {
  it('reads ratings sent as a list of {category, rating}', () => {
    const review = legacyReview(
      legacyDetail({
        ratings: [
          { category: 'overall', rating: 5 },
          { category: 'value_for_money', rating: '4', comment: 'Fair' },
          { name: 'checkin', score: null },
          7,
        ],
      }),
    );
    expect(review.ratings).toEqual([
      { category: 'Overall', value: 5, comment: null },
      { category: 'Value for money', value: 4, comment: 'Fair' },
      { category: 'Checkin', value: null, comment: null },
      { category: 'Rating 4', value: 7, comment: null },
    ]);
    expect(review.ratingsText).toBeNull();
  });

  it('reads ratings sent as a JSON string', () => {
    const review = legacyReview(legacyDetail({ ratings: '[{"category":"cleanliness","rating":4}]' }));
    expect(review.ratings).toEqual([{ category: 'Cleanliness', value: 4, comment: null }]);
  });

  it('reads ratings sent as an object, keeping values that are not numbers as text', () => {
    const review = legacyReview(legacyDetail({ ratings: { accuracy: 5, location: 'great', noise: null } }));
    expect(review.ratings).toEqual([
      { category: 'Accuracy', value: 5, comment: null },
      { category: 'Location', value: 'great', comment: null },
      { category: 'Noise', value: null, comment: null },
    ]);
  });

  it('keeps ratings sent as plain text as text', () => {
    const review = legacyReview(legacyDetail({ ratings: 'Five stars all round' }));
    expect(review.ratings).toEqual([]);
    expect(review.ratingsText).toBe('Five stars all round');
    expect(legacyReview(legacyDetail({ ratings: 42 })).ratings).toEqual([]);
  });

  it('reads its facts field by field', () => {
    const review = legacyReview(
      legacyDetail({ publicReview: 'Bright house', hidden: 'yes' as unknown as boolean, submitted: true }),
    );
    expect(review.publicReview).toBe('Bright house');
    expect(review.hidden).toBeNull(); // not a boolean
    expect(review.submitted).toBe(true);
  });
});

describe('a review in the owner’s words', () => {
  it('says what kind of review it is', () => {
    expect(reviewKind(current())).toBe('Guest review');
    expect(reviewKind(current({ type: 'guest_to_host' }))).toBe('Guest review');
    expect(reviewKind(current({ type: 'host_to_guest' }))).toBe('Host to guest');
    expect(reviewKind(legacy({ reviewerRole: 'host' }))).toBe('Your review of a guest');
    expect(reviewKind(legacy({ reviewerRole: 'guest' }))).toBe('Guest review');
    expect(reviewKind(legacy())).toBe('Guest review');
    expect(reviewKind(legacy({ reviewerRole: 'cohost' }))).toBe('Review by cohost');
  });

  it('says where it stands', () => {
    expect(reviewStatus(current({ status: 'published' }))).toBe('Published');
    expect(reviewStatus(current({ status: 'in_review' }))).toBe('In moderation');
    expect(reviewStatus(current({ status: 'created' }))).toBe('Not published yet');
    expect(reviewStatus(current({ status: 'under_appeal' }))).toBe('Under appeal');
    expect(reviewStatus(current())).toBe('Status not given');
    expect(reviewStatus(legacy({ hidden: true, action: 'review_published' }))).toBe('Hidden for now');
    expect(reviewStatus(legacy({ action: 'review_published' }))).toBe('Published');
    expect(reviewStatus(legacy())).toBe('Received');
  });

  it('is dated by its own date when it has one, otherwise by when it arrived', () => {
    // A date-only date is that day in the owner's calendar (its midnight), with no made-up time of day.
    expect(reviewDate(current({ date: '2025-03-01' }))).toBe(new Date(2025, 2, 1).getTime());
    expect(reviewDate(legacy({ submittedAt: '2025-03-02T09:30:00Z' }))).toBe(Date.parse('2025-03-02T09:30:00Z'));
    expect(reviewDate(current({ date: 'soon' }))).toBe(base.receivedAt);
    expect(reviewDate(legacy())).toBe(base.receivedAt);
  });

  it('is recognised in the list by its first text', () => {
    expect(reviewPreview(current({ title: 'Lovely', positive: 'Staff' }))).toBe('Lovely');
    expect(reviewPreview(current({ negative: 'Noisy' }))).toBe('Noisy');
    expect(reviewPreview(current())).toBe('Scores only');
    expect(reviewPreview(legacy({ publicReview: 'Bright house' }))).toBe('Bright house');
    expect(reviewPreview(legacy({ privateFeedback: 'Broken light' }))).toBe('Private feedback only');
    expect(reviewPreview(legacy())).toBe('Ratings only');
  });

  it('names the guest who wrote it when the channel says, never the owner', () => {
    expect(reviewerName(legacy({ guestFirstName: 'Maria' }))).toBe('Maria');
    expect(reviewerName(legacy({ guestFirstName: 'Joseph', reviewerRole: 'host' }))).toBeNull();
    expect(reviewerName(current())).toBeNull();
  });
});
