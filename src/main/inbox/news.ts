import type { InboxCounts, NewMessageEvent } from '../../shared/inbox';
import type { CoreBus } from '../bus';
import type { EventBus } from '../gateway/events';
import type { IngestResult } from '../intake/ingest';
import type { OutboxItem } from '../outbox/types';
import type { FiledMessage } from './fileMessage';
import type { FiledReview } from './fileReview';
import type { InboxQueries } from './inboxQueries';
import { placeOfKey } from './replySenders';

/** What a host does to get the owner's attention: native notification + tray (Electron), or nothing extra. */
export interface Notifier {
  newMessage(message: NewMessageEvent): void;
  unreadCount(count: number): void;
}

/**
 * Tells the renderer and the host what changed in the inbox: counts after every change, a new guest message as a
 * notification, and replies whose delivery moved on in the outbox.
 */
export function createInboxNews(deps: {
  inbox: InboxQueries;
  events: EventBus;
  /** The other features hear of each guest message and review filed. */
  bus?: CoreBus;
  notifier?: Notifier | undefined;
  /** After a group of deliveries was told (their message texts are indexed soon after). */
  afterTold?: () => void;
}) {
  const { inbox, events, notifier } = deps;

  const changed = (threadId: number | null, reviewId: number | null): InboxCounts => {
    const counts = inbox.counts();
    events.emit('inbox.changed', { threadId, reviewId, counts });
    // The same count as the navigation badge and the window title: unread conversations and reviews.
    notifier?.unreadCount(counts.unreadThreads + counts.unreadReviews);
    return counts;
  };

  let stopped = false;
  /**
   * Deliveries acknowledged together (one group commit) are told together: the counts are read once for all of
   * them, each conversation or review that changed is named once.
   */
  const tell = (results: readonly IngestResult[]): void => {
    if (stopped || results.length === 0) return;
    const threads = new Set<number>();
    const reviews = new Set<number>();
    for (const result of results) {
      if (result.outcome !== 'stored') continue;
      if (result.kind === 'message') {
        const filed = result.filed as FiledMessage;
        threads.add(filed.threadId);
        if (filed.author !== 'guest') continue;
        const message = inbox.newMessage(filed.messageId);
        if (message) {
          events.emit('inbox.newMessage', message);
          notifier?.newMessage(message);
        }
        deps.bus?.emit('guestMessageFiled', { messageId: filed.messageId, threadId: filed.threadId });
      } else if (result.kind === 'review' || result.kind === 'legacy-review') {
        const filed = result.filed as FiledReview;
        reviews.add(filed.reviewId);
        deps.bus?.emit('reviewFiled', filed);
      }
    }
    const counts = inbox.counts();
    for (const threadId of threads) events.emit('inbox.changed', { threadId, reviewId: null, counts });
    for (const reviewId of reviews) events.emit('inbox.changed', { threadId: null, reviewId, counts });
    // Only deliveries put in quarantine: the lists are the same, the counts are not.
    if (threads.size + reviews.size === 0) events.emit('inbox.changed', { threadId: null, reviewId: null, counts });
    notifier?.unreadCount(counts.unreadThreads + counts.unreadReviews);
    deps.afterTold?.();
  };

  return {
    changed,

    /** A group of deliveries was filed and Su was told (after their acknowledgements went out). */
    afterDeliveries: tell,

    /** The core is closing: news of later deliveries is not told (the database it would read is about to close). */
    stop(): void {
      stopped = true;
    },

    /** A reply moved on in the outbox (queued, sent, failed, discarded). */
    afterOutboxChange(item: OutboxItem): void {
      const place = placeOfKey(item.entityKey);
      if (place && 'threadId' in place) {
        // Whether a thread still needs a reply depends on where its replies are (failed and discarded do not count).
        inbox.refreshThread(place.threadId);
        changed(place.threadId, null);
      } else if (place) changed(null, place.reviewId);
    },
  };
}

export type InboxNews = ReturnType<typeof createInboxNews>;
