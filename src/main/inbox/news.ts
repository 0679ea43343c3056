import type { InboxCounts, NewMessageEvent } from '../../shared/inbox';
import type { EventBus } from '../gateway/events';
import { parseEntityKey } from '../outbox/entityKeys';
import type { OutboxItem } from '../outbox/types';
import { wasFiled, type IngestResult } from '../push/ingest';
import type { InboxQueries } from './inboxQueries';

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
  notifier?: Notifier | undefined;
  /** After a group of pushes was told (their message texts are indexed soon after). */
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

  // Pushes acknowledged together (one group commit) are told together, in the next turn of the event loop: the
  // counts are read once for all of them, each conversation or review that changed is named once.
  let pending: IngestResult[] = [];
  let telling: NodeJS.Immediate | null = null;
  let stopped = false;
  const tell = (): void => {
    telling = null;
    const results = pending;
    pending = [];
    const threads = new Set<number>();
    const reviews = new Set<number>();
    for (const result of results) {
      if (result.message?.author === 'guest') {
        const message = inbox.newMessage(result.message.messageId);
        if (message) {
          events.emit('inbox.newMessage', message);
          notifier?.newMessage(message);
        }
      }
      if (result.message) threads.add(result.message.threadId);
      if (result.review) reviews.add(result.review.reviewId);
    }
    const counts = inbox.counts();
    for (const threadId of threads) events.emit('inbox.changed', { threadId, reviewId: null, counts });
    for (const reviewId of reviews) events.emit('inbox.changed', { threadId: null, reviewId, counts });
    // Only pushes put in quarantine: the lists are the same, the counts are not.
    if (threads.size + reviews.size === 0) events.emit('inbox.changed', { threadId: null, reviewId: null, counts });
    notifier?.unreadCount(counts.unreadThreads + counts.unreadReviews);
    deps.afterTold?.();
  };

  return {
    changed,

    /** A push was filed (after its acknowledgement went out); told with the others of its group. */
    afterPush(result: IngestResult): void {
      if (!wasFiled(result) || stopped) return;
      pending.push(result);
      telling ??= setImmediate(tell);
    },

    /** The core is closing: news still waiting is dropped (the database it would read is about to close). */
    stop(): void {
      stopped = true;
      if (telling) clearImmediate(telling);
      telling = null;
      pending = [];
    },

    /** A reply moved on in the outbox (queued, sent, failed, discarded). */
    afterOutboxChange(item: OutboxItem): void {
      const entity = parseEntityKey(item.entityKey);
      if (entity?.kind === 'thread') {
        // Whether a thread still needs a reply depends on where its replies are (failed and discarded do not count).
        inbox.refreshThread(entity.threadId);
        changed(entity.threadId, null);
      } else if (entity?.kind === 'review') changed(null, entity.reviewId);
    },
  };
}

export type InboxNews = ReturnType<typeof createInboxNews>;
