import type { DatabaseSync } from 'node:sqlite';
import type { CurrentReviewDetail, LegacyReviewDetail } from '../../shared/inbox';
import type { LegacyReviewDelivery, ReviewDelivery } from '../../shared/su/deliveries';

/** How far a review has come; a repost with an earlier status never replaces a later one. */
const STATUS_RANK: Record<string, number> = { created: 1, in_review: 2, published: 3 };

/** A review filed: new (`created`), or an update of one already filed. */
export interface FiledReview {
  reviewId: number;
  created: boolean;
}
type Stored = FiledReview | null;

function upsert(
  db: DatabaseSync,
  row: {
    kind: 'current' | 'legacy';
    channel: string;
    id: string;
    hotelId: string | null;
    detail: object;
    rank: number;
  },
  meta: { receivedAt: number; pushLogId: number },
  texts: (string | null | undefined)[],
): Stored {
  const existing = db
    .prepare('SELECT id, detail FROM reviews WHERE kind = ? AND channel = ? AND provider_review_id = ?')
    .get(row.kind, row.channel, row.id) as { id: number; detail: string } | undefined;
  if (existing) {
    const before = JSON.parse(existing.detail) as Record<string, unknown> & { status?: string | null };
    const beforeRank = STATUS_RANK[before.status ?? ''] ?? 0;
    if (row.rank < beforeRank) return null; // older news: a late repost never overwrites a later status
    // What the new delivery says wins; what it leaves out (null) keeps the earlier value (legacy events carry parts).
    const merged: Record<string, unknown> = { ...before };
    for (const [key, value] of Object.entries(row.detail))
      if (value !== null && value !== undefined) merged[key] = value;
    if (JSON.stringify(merged) === JSON.stringify(before)) return null; // a repost
    db.prepare('UPDATE reviews SET detail = ?, unread = 1 WHERE id = ?').run(JSON.stringify(merged), existing.id);
    // Re-index the review with everything it now says.
    db.prepare("DELETE FROM search_index WHERE source = 'review' AND ref = ?").run(existing.id);
    const all = [merged.title, merged.positive, merged.negative, merged.publicReview, merged.privateFeedback].filter(
      (v) => typeof v === 'string' && v,
    );
    if (all.length)
      db.prepare("INSERT INTO search_index (text, source, ref) VALUES (?, 'review', ?)").run(
        all.join('\n'),
        existing.id,
      );
    return { reviewId: existing.id, created: false };
  }
  const inserted = db
    .prepare(
      'INSERT INTO reviews (kind, channel, provider_review_id, hotel_id, detail, received_at, push_log_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(row.kind, row.channel, row.id, row.hotelId, JSON.stringify(row.detail), meta.receivedAt, meta.pushLogId);
  const reviewId = Number(inserted.lastInsertRowid);
  const text = texts.filter(Boolean).join('\n');
  if (text) db.prepare("INSERT INTO search_index (text, source, ref) VALUES (?, 'review', ?)").run(text, reviewId);
  return { reviewId, created: true };
}

/** Files a current review (Booking.com, Expedia). Returns null for a repost that brings nothing newer. */
export function fileReview(
  db: DatabaseSync,
  delivery: ReviewDelivery,
  meta: { receivedAt: number; pushLogId: number },
): Stored {
  const detail: CurrentReviewDetail = {
    title: delivery.review_title ?? null,
    positive: delivery.review_description ?? null,
    negative: delivery.review_negative_description ?? null,
    scores: delivery.review_score ?? {},
    status: delivery.review_status ?? null,
    date: delivery.review_date ?? null,
    type: delivery.review_type ?? null,
    eligibleToReply: delivery.is_eligible_to_respond ?? null,
    revieweeName: delivery.reviewee_name ?? null,
    channelPropertyId: delivery.channel_property_id ?? null,
    bookingId: delivery.channel_booking_id ?? null,
  };
  return upsert(
    db,
    {
      kind: 'current',
      channel: delivery.channel_id,
      id: delivery.channel_review_id,
      hotelId: delivery.hotel_id,
      detail,
      rank: STATUS_RANK[detail.status ?? ''] ?? 0,
    },
    meta,
    [detail.title, detail.positive, detail.negative],
  );
}

/** Files a legacy Airbnb review. */
export function fileLegacyReview(
  db: DatabaseSync,
  delivery: LegacyReviewDelivery,
  meta: { receivedAt: number; pushLogId: number },
): Stored {
  const r = delivery.review;
  const guestIds = new Set(
    delivery.user_details?.roles.filter((x) => x.role === 'guest').flatMap((x) => x.user_ids) ?? [],
  );
  const guest = delivery.user_details?.users.find((u) => guestIds.has(u.id) || u.id === r.reviewerid);
  const detail: LegacyReviewDetail = {
    action: r.action ?? null,
    publicReview: r.public_review ?? null,
    privateFeedback: r.private_feedback ?? null,
    ratings: r.ratings ?? null,
    reviewerRole: r.reviewer_role ?? null,
    revieweeRole: r.reviewee_role ?? null,
    reviewerId: r.reviewerid ?? null,
    hidden: r.hidden ?? null,
    submitted: r.submitted ?? null,
    submittedAt: r.submitted_at ?? null,
    expiresAt: r.expires_at ?? null,
    // The delivery's own bookingid is a booking only when bookingflag says B; otherwise (T) it is the thread id.
    bookingId: r.booking_id ?? (delivery.bookingflag === 'B' ? (delivery.bookingid ?? null) : null),
    listingId: r.listing_id ?? delivery.listingid ?? null,
    guestFirstName: guest?.first_name ?? null,
  };
  return upsert(
    db,
    {
      kind: 'legacy',
      channel: delivery.channel_id ?? '244',
      id: r.reviewid,
      hotelId: delivery.hotelcode ?? null,
      detail,
      rank: 0,
    },
    meta,
    [detail.publicReview, detail.privateFeedback],
  );
}
