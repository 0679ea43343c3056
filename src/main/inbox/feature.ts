import type { FeatureContext } from '../featureContext';
import type { Outbox } from '../outbox/outbox';
import { inboxHandlers } from './handlers';
import { createInboxQueries } from './inboxQueries';
import { createMessageIndexer } from './messageIndex';
import { createInboxNews, type Notifier } from './news';
import { createReplyService } from './replyService';
import { REPLY_KINDS, type ReplySenders } from './replySenders';

const REPLY_KIND_SET = new Set<string>(Object.values(REPLY_KINDS));

/**
 * The inbox: conversations and reviews read from the database, replies through the outbox, news of each change, and
 * new messages indexed for search.
 */
export function createInboxFeature(
  context: FeatureContext & { outbox: Outbox<ReplySenders>; notifier?: Notifier | undefined },
) {
  const { database, now } = context;
  const inbox = createInboxQueries(database.db, now);
  // New messages' texts are indexed for search soon after their group of pushes was told (messageIndex.ts).
  const indexer = createMessageIndexer(database.db);
  const told = createInboxNews({ inbox, events: context.events, notifier: context.notifier, afterTold: indexer.soon });
  const news = {
    ...told,
    stop(): void {
      told.stop();
      indexer.stop();
    },
  };
  const replies = createReplyService({ database, outbox: context.outbox, inbox, now });
  return {
    news,
    replies,
    isReply: (kind: string) => REPLY_KIND_SET.has(kind),
    handlers: inboxHandlers({ inbox, replies, news }),
  };
}
