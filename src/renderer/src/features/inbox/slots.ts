import type { ThreadDetail } from '@shared/inbox';
import { defineSlot } from '@renderer/lib/sections';

// The inbox's places that later features fill (lib/sections.ts): the inbox never imports them.

/** The open conversation, under its booking: what a later feature keeps about it (its payment links). */
export const THREAD_ASIDE = defineSlot<{ threadId: number }>('inbox.threadAside');

/**
 * The reply box's tools, before Saved replies (a payment link). A tool that makes text for the reply gives it to
 * `onInsert`: it goes where the caret was, or after what is written (what `onInsert` returns is a promise).
 */
export const REPLY_TOOLS = defineSlot<{
  thread: ThreadDetail;
  /** Whether the conversation is about a booking (an enquiry is not). */
  hasBooking: boolean;
  onInsert: (text: string) => Promise<void>;
}>('inbox.replyTools');

/** Above the inbox's tabs: a note of a later feature about what came in (what arrived while this computer was off). */
export const INBOX_NOTES = defineSlot('inbox.notes');
