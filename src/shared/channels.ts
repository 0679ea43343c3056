/**
 * Every channel rule in one table. Codes are strings as they arrive on the wire; a code not listed here is
 * still a channel ("channel 189") and is never dropped.
 */
export interface ChannelProfile {
  code: string;
  name: string;
  /** The indefinite article of the name as it is said ("an Airbnb review", "a Booking.com review"). */
  article: 'a' | 'an';
  /** How a line break inside a reply is written on the wire for this channel. */
  replyLineBreak: string;
  /** False where the provider says nothing and the rule is our best guess (Expedia). */
  lineBreakConfirmed: boolean;
  /** Reply fields the channel requires beyond hotelid, channel and message. */
  replyRequires: readonly ('threadid' | 'guestid' | 'listingid' | 'bookingid')[];
  /** Which review API serves the channel: the current one (19, 9), the legacy one (244), or none. */
  reviewApi: 'current' | 'legacy' | null;
}

const BACKSLASH = '\\';

export const CHANNELS: Readonly<Record<string, ChannelProfile>> = {
  '244': {
    code: '244',
    name: 'Airbnb',
    article: 'an',
    replyLineBreak: `${BACKSLASH}n`,
    lineBreakConfirmed: true,
    replyRequires: ['threadid', 'guestid', 'listingid'],
    reviewApi: 'legacy',
  },
  '19': {
    code: '19',
    name: 'Booking.com',
    article: 'a',
    replyLineBreak: `${BACKSLASH}${BACKSLASH}n`,
    lineBreakConfirmed: true,
    replyRequires: ['bookingid'],
    reviewApi: 'current',
  },
  '9': {
    code: '9',
    name: 'Expedia',
    article: 'an',
    replyLineBreak: `${BACKSLASH}${BACKSLASH}n`,
    lineBreakConfirmed: false,
    replyRequires: ['bookingid'],
    reviewApi: 'current',
  },
};

/** The channels messages and reviews can be answered on. */
export const MESSAGING_CHANNELS = ['244', '19', '9'] as const;
export type MessagingChannel = (typeof MESSAGING_CHANNELS)[number];

/** The profile for a code; unknown codes get a generic profile named after their number. */
export function channelProfile(code: string | number): ChannelProfile {
  const key = String(code).trim();
  return (
    CHANNELS[key] ?? {
      code: key,
      name: `channel ${key}`,
      article: 'a',
      replyLineBreak: '\n',
      lineBreakConfirmed: false,
      replyRequires: [],
      reviewApi: null,
    }
  );
}

/** The display name of a channel code ("Airbnb", or "channel 189" for codes we do not know). */
export const channelName = (code: string | number): string => channelProfile(code).name;

/** The channel's name after its article, for a sentence: "an Airbnb", "a Booking.com", "a channel 189". */
export function aChannel(code: string | number): string {
  const { article, name } = channelProfile(code);
  return `${article} ${name}`;
}

/** Writes the owner's line breaks the way the channel expects them in a reply (`replyLineBreak`). */
export function encodeReplyLineBreaks(text: string, code: string | number): string {
  return text.replace(/\r\n|\r|\n/g, channelProfile(code).replyLineBreak);
}
