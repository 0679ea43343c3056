import { connectionFeature } from '../connection/feature';
import { defineFeature, guardedNotifier } from '../feature';
import type { DeliveryFilers } from '../intake/deliveryKinds';
import { outboxFeature } from '../outbox/feature';
import { outboxFor } from '../outbox/outbox';
import { createBookingFacts } from './bookingFacts';
import { fileMessage } from './fileMessage';
import { fileLegacyReview, fileReview } from './fileReview';
import { inboxHandlers } from './handlers';
import { createInboxQueries } from './inboxQueries';
import { createMessageIndexer } from './messageIndex';
import { INBOX_MIGRATIONS } from './migrations';
import { createInboxNews, type Notifier } from './news';
import { placeOfKey, replySenders, type ReplyKinds } from './replySenders';
import { createReplyService } from './replyService';

/** The kinds of delivery the inbox files: a guest message (or the owner's own), a review, a legacy Airbnb review. */
export const INBOX_FILERS = {
  message: fileMessage,
  review: fileReview,
  'legacy-review': fileLegacyReview,
} satisfies DeliveryFilers;

/**
 * The inbox: conversations and reviews, filed from Su's deliveries; replies through the outbox; news of each
 * change for the renderer and the host (host option `notifier`: a native notification and the tray's count); new
 * messages indexed for search. Tells the bus of each guest message and review filed (`guestMessageFiled`,
 * `reviewFiled`). Provides its queries and its replies: `replies.queueReply(threadId, body)` queues a reply that is
 * not the owner's Send (an automatic one: the owner's draft stays), inside the caller's transaction when there is
 * one; `replies.sendReply` is the owner's Send (it clears the draft). Neither marks anything read.
 */
export const inboxFeature = defineFeature({
  name: 'inbox',
  migrations: INBOX_MIGRATIONS,
  create(context) {
    const { database, now, bus } = context;
    const { connection } = context.use(connectionFeature);
    const outbox = outboxFor<ReplyKinds>(context.use(outboxFeature));
    const inbox = createInboxQueries(database.db, now);
    // New messages' texts are indexed for search soon after their group of deliveries was told (messageIndex.ts).
    const indexer = createMessageIndexer(database.db);
    const news = createInboxNews({
      inbox,
      events: context.events,
      bus,
      notifier: guardedNotifier<Notifier>(context),
      afterTold: indexer.soon,
    });
    bus.on('deliveriesFiled', (results) => news.afterDeliveries(results));
    const replies = createReplyService({ database, outbox, inbox, now });

    // Each reply goes out through the client in use at the time it is sent (new credentials apply at once).
    const senders = replySenders(() => connection.provider(), inbox.reviewAnswered);
    const kind = <K extends keyof ReplyKinds>(send: ReplyKinds[K]['send']) => ({
      send,
      changed: news.afterOutboxChange,
      place: (item: { entityKey: string }) => placeOfKey(item.entityKey),
    });
    const outboxKinds: ReplyKinds = {
      'message-reply': kind<'message-reply'>(senders['message-reply']),
      'review-reply': kind<'review-reply'>(senders['review-reply']),
      'legacy-review-reply': kind<'legacy-review-reply'>(senders['legacy-review-reply']),
    };

    return {
      deliveryKinds: INBOX_FILERS,
      outboxKinds,
      handlers: inboxHandlers({
        inbox,
        replies,
        news,
        bookingFacts: createBookingFacts(database.db),
        beforeSearch: indexer.catchUp,
      }),
      provides: { inbox, replies },
      stop() {
        news.stop();
        indexer.stop();
      },
    };
  },
});
