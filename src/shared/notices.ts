import { z } from 'zod';
import type { AppError } from './result';
import { codeAsWords, hotelIdSchema } from './su/common';
import { defineSlice } from './contractSlice';

// Airbnb's notices about the owner's accounts (Su's notificationAB, endpoint 12): fetched in the background for
// every property with Airbnb (channel 244), kept locally and deduplicated by Airbnb's notification id.

/** Airbnb's kinds of notice that owners meet, in words (Airbnb's own type stays in the data only). */
const NOTICE_KINDS: Record<string, string> = {
  PAYOUT: 'Payouts',
  LISTING_QUALITY: 'Listing quality',
  CALENDAR: 'Calendar',
  ACCOUNT_VERIFICATION: 'Account verification',
  TAXPAYER_INFORMATION: 'Taxpayer information',
  POLICY_WARNING: 'Rules warning',
  LISTING_SUSPENSION_PENDING: 'Listing suspension',
  GENERAL: 'General',
};

/** A notice's kind in words: a known kind's, else Airbnb's type read as words (TRIP_ISSUE → "Trip issue"). */
export function noticeKind(type: string): string {
  const t = type.trim().toUpperCase();
  if (!t) return 'Notice';
  return NOTICE_KINDS[t] ?? codeAsWords(t);
}

/** One notice, as the Notices tab lists it. */
export interface Notice {
  id: number;
  hotelId: string;
  /** The Airbnb account (host account id) the notice is about. */
  accountId: string;
  notificationId: string;
  type: string;
  title: string;
  subtitle: string;
  /** The call to action, only when it is an https address (anything else is not offered). */
  actionUrl: string | null;
  /** When the app first saw it (epoch ms). */
  firstSeenAt: number;
  /** When the owner marked it seen or opened it, or null. */
  seenAt: number | null;
}

/** One connected Airbnb account of a property: its last answer. */
export interface NoticeAccount {
  hotelId: string;
  accountId: string;
  ok: boolean;
  /** Why the account's notices could not be fetched (Airbnb's or Su's words), when not ok. */
  message: string | null;
  checkedAt: number;
}

/** How fetching a property's notices goes. */
export interface NoticeCheck {
  hotelId: string;
  /** The last time the call worked, and the last time it was tried (epoch ms). */
  lastOkAt: number | null;
  lastTriedAt: number | null;
  /** Why the last call failed (the whole call: Su's Errors), or null when it worked. */
  error: AppError | null;
  /** When the next check is due (epoch ms); later after failures (backoff). */
  nextAt: number | null;
}

export interface NoticesView {
  notices: Notice[];
  accounts: NoticeAccount[];
  checks: NoticeCheck[];
  /** Notices not yet seen, over every property (the navigation badge). */
  unseen: number;
  /** Properties that are checked: those with Airbnb among their channels. */
  hotelIds: string[];
}

const hotel = hotelIdSchema(64);

export const noticesMethods = {
  'notices.list': z.object({ hotelId: hotel.optional() }).strict(),
  'notices.markSeen': z
    .object({ ids: z.array(z.number().int().positive()).max(1000).optional(), hotelId: hotel.optional() })
    .strict(),
  /** Checks now (the property, or every one), one request at a time; answers the list afterwards. */
  'notices.checkNow': z.object({ hotelId: hotel.optional() }).strict(),
  /** Marks the notice seen and answers its https call to action, for the host to open in the system browser. */
  'notices.open': z.object({ id: z.number().int().positive() }).strict(),
} as const;

export interface NoticesResults {
  'notices.list': NoticesView;
  'notices.markSeen': { unseen: number };
  'notices.checkNow': NoticesView;
  'notices.open': { url: string };
}

export interface NoticesEvents {
  /** Notices were fetched or marked seen. `added` holds the notices new since the last check (for a notification). */
  'notices.changed': { unseen: number; added: Notice[] };
}

/** The notices slice of the contract (listed in contract.ts). */
export const noticesContract = defineSlice<NoticesResults, NoticesEvents>()(noticesMethods, ['notices.changed']);
