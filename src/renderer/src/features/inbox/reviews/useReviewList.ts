import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import type { MessagingChannel } from '@shared/channels';
import type { InboxCounts, ReviewItem, ReviewQuery, ReviewScoreBand } from '@shared/inbox';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { latestOnly } from '@renderer/lib/latestOnly';

/**
 * The inbox's reviews (part of the inbox store): the list with its filters and the review that is open, read as soon
 * as it is seen. The property filter (`hotelId`) is the one the conversations share; `counts` is the store's unread
 * counts, which a review marked read updates.
 */
export function useReviewList(options: {
  hotelId: Ref<string | null>;
  counts: Ref<InboxCounts | null>;
  /** The typed search as it is asked for (trimmed, cut to the longest a search can be). */
  searchText: (value: string) => string;
  pageIsSeen: () => boolean;
}) {
  const { hotelId, counts, searchText, pageIsSeen } = options;
  const reviews = shallowRef<ReviewItem[] | null>(null);
  const reviewsError = shallowRef<AppError | null>(null);
  const reviewsLoading = ref(false);
  const openReviewId = ref<number | null>(null);
  /** Search over review texts, guests, booking numbers and properties. */
  const reviewSearch = ref('');
  const reviewChannel = ref<'all' | MessagingChannel>('all');
  const reviewUnreadOnly = ref(false);
  const reviewNeedsReplyOnly = ref(false);
  const reviewScore = ref<ReviewScoreBand | null>(null);
  const reviewQuery = (): ReviewQuery => {
    const text = searchText(reviewSearch.value);
    return {
      ...(text ? { search: text } : {}),
      ...(hotelId.value ? { hotelId: hotelId.value } : {}),
      ...(reviewChannel.value === 'all' ? {} : { channel: reviewChannel.value }),
      ...(reviewUnreadOnly.value ? { unreadOnly: true } : {}),
      ...(reviewNeedsReplyOnly.value ? { needsReplyOnly: true } : {}),
      ...(reviewScore.value ? { score: reviewScore.value } : {}),
    };
  };
  const reviewsFiltered = computed(() => Object.keys(reviewQuery()).length > 0);
  // A filter other than the typed search applies at once (the search waits for a pause in typing: ReviewList).
  watch([hotelId, reviewChannel, reviewUnreadOnly, reviewNeedsReplyOnly, reviewScore], () => {
    if (reviews.value !== null) void loadReviews();
  });
  function clearReviewFilters() {
    reviewSearch.value = '';
    hotelId.value = null;
    reviewChannel.value = 'all';
    reviewUnreadOnly.value = false;
    reviewNeedsReplyOnly.value = false;
    reviewScore.value = null;
  }
  const openReview = computed(() => reviews.value?.find((r) => r.id === openReviewId.value) ?? null);

  // The search changes as the owner types, and events reload the list: only the newest answer counts.
  const reviewLoads = latestOnly();
  async function loadReviews() {
    reviewsLoading.value = reviews.value === null;
    const isNewest = reviewLoads();
    try {
      const result = await api['inbox.reviews'](reviewQuery());
      if (!isNewest()) return;
      if (result.ok) {
        reviews.value = result.value;
        reviewsError.value = null;
      } else reviewsError.value = result.error;
    } finally {
      reviewsLoading.value = false;
    }
    markOpenReviewRead();
  }

  function markOpenReviewRead() {
    const review = openReview.value;
    if (!review?.unread || !pageIsSeen()) return;
    reviews.value = reviews.value!.map((r) => (r.id === review.id ? { ...r, unread: false } : r));
    void api['inbox.markReviewRead']({ id: review.id }).then((result) => {
      if (result.ok) counts.value = result.value;
    });
  }

  /** Shows a review (null: none); the list is loaded the first time. */
  async function showReview(id: number | null) {
    openReviewId.value = id;
    if (reviews.value === null) await loadReviews();
    else markOpenReviewRead();
  }

  return {
    reviews,
    reviewsError,
    reviewsLoading,
    openReviewId,
    openReview,
    loadReviews,
    markOpenReviewRead,
    reviewSearch,
    reviewChannel,
    reviewUnreadOnly,
    reviewNeedsReplyOnly,
    reviewScore,
    reviewsFiltered,
    clearReviewFilters,
    showReview,
  };
}
