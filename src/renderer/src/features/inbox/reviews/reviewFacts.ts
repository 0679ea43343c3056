import type { CurrentReviewDetail, LegacyReviewDetail, ReviewItem } from '@shared/inbox';
import { formatDateTime } from '@renderer/lib/format';
import { humanize, relativeDay, relativeTime } from '../format';

const dayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

// The core files reviews in the owner's words (CurrentReviewDetail, LegacyReviewDetail); what a delivery brought is
// still read defensively, field by field (a score may be text, ratings come in four shapes), so an odd delivery
// never breaks the screen.

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** A current review (Booking.com, Expedia) as the screen shows it: scores as a list, "overall" first. */
export type CurrentReview = Omit<CurrentReviewDetail, 'scores' | 'eligibleToReply' | 'channelPropertyId'> & {
  /** Category and score (0 to 10), null where the guest gave none. */
  scores: { category: string; score: number | null }[];
};

export function currentReview(d: CurrentReviewDetail): CurrentReview {
  const raw = d.scores && typeof d.scores === 'object' ? (d.scores as Record<string, unknown>) : {};
  const scores = Object.entries(raw)
    .map(([category, score]) => ({ category, score: num(score) }))
    .sort((a, b) => Number(b.category === 'overall') - Number(a.category === 'overall'));
  return {
    title: text(d.title),
    positive: text(d.positive),
    negative: text(d.negative),
    scores,
    status: text(d.status),
    date: text(d.date),
    type: text(d.type),
    revieweeName: text(d.revieweeName),
    bookingId: text(d.bookingId),
  };
}

/**
 * Who wrote a Booking.com or Expedia review and whom it is about, in the owner's words: "Guest" about "Host (Maria
 * Jensen)". The review's type says both sides ("guest_to_host", the only kind Su's current review API serves: its
 * reviews are guests'); the named person (`reviewee_name`) is the one reviewed, the host, never the guest.
 */
export function currentSides(review: Pick<CurrentReview, 'type' | 'revieweeName'>): { by: string; about: string } {
  const sides = /^([a-z]+)_to_([a-z]+)$/i.exec(review.type ?? '');
  const by = humanize(sides?.[1] ?? 'guest');
  const about = humanize(sides?.[2] ?? 'host');
  return { by, about: review.revieweeName ? `${about} (${review.revieweeName})` : about };
}

/** One line of an Airbnb rating: a category and its stars (or whatever the channel sent). */
export interface Rating {
  category: string;
  value: number | string | null;
  comment: string | null;
}

/** A legacy Airbnb review as the screen shows it: its ratings read into lines, whatever shape they came in. */
export type LegacyReview = Omit<LegacyReviewDetail, 'ratings' | 'reviewerId'> & {
  ratings: Rating[];
  /** Ratings that came as free text rather than a list. */
  ratingsText: string | null;
};

/** Airbnb's ratings arrive as a list of {category, rating}, a JSON string, an object, or plain text. */
function ratingsOf(raw: unknown): { ratings: Rating[]; text: string | null } {
  if (typeof raw === 'string') {
    try {
      return ratingsOf(JSON.parse(raw));
    } catch {
      return { ratings: [], text: text(raw) };
    }
  }
  if (Array.isArray(raw)) {
    const ratings = raw.map((item, i): Rating => {
      if (item && typeof item === 'object') {
        const o = item as Record<string, unknown>;
        const value = o.rating ?? o.score ?? o.value ?? null;
        return {
          category: humanize(String(o.category ?? o.name ?? o.type ?? `Rating ${i + 1}`)),
          value: num(value) ?? (value === null ? null : String(value)),
          comment: text(o.comment),
        };
      }
      return { category: `Rating ${i + 1}`, value: num(item) ?? String(item), comment: null };
    });
    return { ratings, text: null };
  }
  if (raw && typeof raw === 'object') {
    const ratings = Object.entries(raw).map(([k, v]) => ({
      category: humanize(k),
      value: num(v) ?? (v === null ? null : String(v)),
      comment: null,
    }));
    return { ratings, text: null };
  }
  return { ratings: [], text: null };
}

export function legacyReview(d: LegacyReviewDetail): LegacyReview {
  const { ratings, text: ratingsText } = ratingsOf(d.ratings);
  return {
    action: text(d.action),
    publicReview: text(d.publicReview),
    privateFeedback: text(d.privateFeedback),
    ratings,
    ratingsText,
    reviewerRole: text(d.reviewerRole),
    revieweeRole: text(d.revieweeRole),
    hidden: bool(d.hidden),
    submitted: bool(d.submitted),
    submittedAt: text(d.submittedAt),
    expiresAt: text(d.expiresAt),
    bookingId: text(d.bookingId),
    listingId: text(d.listingId),
    guestFirstName: text(d.guestFirstName),
  };
}

const CURRENT_STATUS: Record<string, string> = {
  published: 'Published',
  in_review: 'In moderation',
  created: 'Not published yet',
};

/** What kind of review it is, in the owner's words. */
export function reviewKind(item: ReviewItem): string {
  if (item.kind === 'current') {
    const type = text(item.detail.type);
    return !type || type === 'guest_to_host' ? 'Guest review' : humanize(type);
  }
  const role = text(item.detail.reviewerRole);
  return role === 'host' ? 'Your review of a guest' : role && role !== 'guest' ? `Review by ${role}` : 'Guest review';
}

/** Where the review stands: published, in moderation, hidden until both sides have written… */
export function reviewStatus(item: ReviewItem): string {
  if (item.kind === 'current') {
    const status = text(item.detail.status);
    return status ? (CURRENT_STATUS[status] ?? humanize(status)) : 'Status not given';
  }
  if (item.detail.hidden === true) return 'Hidden for now';
  const action = text(item.detail.action);
  return action ? humanize(action.replace(/^review_/, '')) : 'Received';
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** When the review was written: its own date when it has one (a calendar day, or a moment), else when it arrived. */
export function reviewWhen(item: ReviewItem): { ms: number; dateOnly: boolean } {
  const own = text(item.kind === 'current' ? item.detail.date : item.detail.submittedAt);
  const dateOnly = !!own && DATE_ONLY.test(own);
  // A date-only review date is that day in the owner's calendar (local midnight), with no time of day.
  const ms = own ? Date.parse(dateOnly ? `${own}T00:00:00` : own) : NaN;
  return Number.isNaN(ms) ? { ms: item.receivedAt, dateOnly: false } : { ms, dateOnly };
}

/** When the review was written (epoch ms), for ordering and ages. */
export const reviewDate = (item: ReviewItem): number => reviewWhen(item).ms;

/** The review's date in full: a date-only date as the day ("Sat, 1 Mar 2025"), never with a made-up "12:00". */
export function reviewDateText(item: ReviewItem): string {
  const when = reviewWhen(item);
  return when.dateOnly ? dayFormat.format(when.ms) : formatDateTime(when.ms);
}

/** The list's short form: "Today", "Yesterday", "Mon", "12 Mar" for a day; "14:05", "5 min"… for a moment. */
export function reviewShortDate(item: ReviewItem, now: number): string {
  const when = reviewWhen(item);
  return when.dateOnly ? relativeDay(when.ms, now) : relativeTime(when.ms, now);
}

/** The overall score as the channel gives it: "8.6 / 10" (Booking.com, Expedia), "4.5 ★" (Airbnb, 1–5 stars). */
export function scoreText(item: ReviewItem): string | null {
  if (item.overallScore === null) return null;
  const n = (v: number) => v.toLocaleString(undefined, { maximumFractionDigits: 1 });
  return item.kind === 'legacy' ? `${n(item.overallScore / 2)} ★` : `${n(item.overallScore)} / 10`;
}

/** A line to recognise the review by in the list. */
export function reviewPreview(item: ReviewItem): string {
  if (item.kind === 'current') {
    const d = item.detail;
    return text(d.title) ?? text(d.positive) ?? text(d.negative) ?? 'Scores only';
  }
  const d = item.detail;
  return text(d.publicReview) ?? (text(d.privateFeedback) ? 'Private feedback only' : 'Ratings only');
}

/** Who wrote it, when the channel says (Airbnb names the guest; a review by the host is the owner's own). */
export function reviewerName(item: ReviewItem): string | null {
  if (item.kind !== 'legacy' || text(item.detail.reviewerRole) === 'host') return null;
  return text(item.detail.guestFirstName);
}
