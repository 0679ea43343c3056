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
export function createInboxNews(deps: { inbox: InboxQueries; events: EventBus; notifier?: Notifier | undefined }) {
  const { inbox, events, notifier } = deps;

  const changed = (threadId: number | null, reviewId: number | null): InboxCounts => {
    const counts = inbox.counts();
    events.emit('inbox.changed', { threadId, reviewId, counts });
    // The same count as the navigation badge and the window title: unread conversations and reviews.
    notifier?.unreadCount(counts.unreadThreads + counts.unreadReviews);
    return counts;
  };

  return {
    changed,

    /** A push was filed (after its acknowledgement went out). */
    afterPush(result: IngestResult): void {
      if (!wasFiled(result)) return;
      if (result.message?.author === 'guest') {
        const thread = inbox.thread(result.message.threadId);
        const message: NewMessageEvent = {
          threadId: thread.id,
          channelName: thread.channelName,
          // Who wrote, by what is known: the first name, else the booking number (never a bare "Guest").
          guestName: thread.guestLabel,
          preview: thread.messages.at(-1)?.body.slice(0, 140) ?? '',
        };
        events.emit('inbox.newMessage', message);
        notifier?.newMessage(message);
      }
      changed(result.message?.threadId ?? null, result.review?.reviewId ?? null);
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
