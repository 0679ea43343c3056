import type { FeatureContext } from '../featureContext';
import type { Outbox } from '../outbox/outbox';
import { inboxHandlers } from './handlers';
import { createInboxQueries } from './inboxQueries';
import { createInboxNews, type Notifier } from './news';
import { createReplyService } from './replyService';
import { REPLY_KINDS, type ReplySenders } from './replySenders';

const REPLY_KIND_SET = new Set<string>(Object.values(REPLY_KINDS));

/** The inbox: conversations and reviews read from the database, replies through the outbox, news of each change. */
export function createInboxFeature(
  context: FeatureContext & { outbox: Outbox<ReplySenders>; notifier?: Notifier | undefined },
) {
  const { database, now } = context;
  const inbox = createInboxQueries(database.db, now);
  const news = createInboxNews({ inbox, events: context.events, notifier: context.notifier });
  const replies = createReplyService({ database, outbox: context.outbox, inbox, now });
  return {
    news,
    replies,
    isReply: (kind: string) => REPLY_KIND_SET.has(kind),
    handlers: inboxHandlers({ inbox, replies, news }),
  };
}
