import { bookingFactsSchema, reviewQuerySchema, threadQuerySchema } from '../../shared/inbox';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { BookingFacts } from './bookingFacts';
import type { InboxQueries } from './inboxQueries';
import type { InboxNews } from './news';
import type { ReplyService } from './replyService';

/** The `inbox.*` methods: threads, reviews, read state, replies and their drafts, what the owner adds to a booking. */
export function inboxHandlers(deps: {
  inbox: InboxQueries;
  replies: ReplyService;
  news: InboxNews;
  bookingFacts: BookingFacts;
  /** Indexes what waits for search a batch at a time, other calls and deliveries let through between batches. */
  beforeSearch: () => Promise<void>;
}): HandlerSlice<'inbox'> {
  const { inbox, replies, news, bookingFacts, beforeSearch } = deps;
  return {
    'inbox.threads': async (args) => {
      const query = threadQuerySchema.parse(args);
      if (query.search) await beforeSearch();
      return inbox.threads(query);
    },
    'inbox.thread': (args) => inbox.thread(args.id),
    'inbox.markThreadRead': (args) => {
      inbox.markThreadRead(args.id);
      return news.changed(args.id, null);
    },
    'inbox.markThreadUnread': (args) => {
      inbox.markThreadUnread(args.id);
      return news.changed(args.id, null);
    },
    'inbox.markThreadDone': (args) => {
      inbox.markThreadDone(args.id);
      return news.changed(args.id, null);
    },
    'inbox.properties': () => inbox.properties(),
    'inbox.reviews': (args) => inbox.reviews(reviewQuerySchema.parse(args)),
    'inbox.markReviewRead': (args) => {
      inbox.markReviewRead(args.id);
      return news.changed(null, args.id);
    },
    'inbox.counts': () => inbox.counts(),
    'inbox.sendReply': (args) => {
      replies.sendReply(args.threadId, args.body);
      news.changed(args.threadId, null);
      return inbox.thread(args.threadId);
    },
    'inbox.saveDraft': (args) => replies.saveDraft(args.threadId, args.body),
    'inbox.saveReviewDraft': (args) => {
      inbox.review(args.reviewId); // refuses an id that is not a review
      return replies.saveReviewDraft(args.reviewId, args.body);
    },
    'inbox.editReply': (args) => {
      replies.editReply(args.id, args.body);
      return { outboxId: args.id };
    },
    'inbox.saveBookingFacts': (args) => {
      bookingFacts.save(bookingFactsSchema.parse(args));
      // The list's row (its title, its stay) follows.
      news.changed(args.threadId, null);
      return inbox.thread(args.threadId);
    },
    'inbox.replyToReview': (args) => {
      replies.replyToReview(args.reviewId, args.body);
      news.changed(null, args.reviewId);
      return inbox.review(args.reviewId);
    },
  };
}
