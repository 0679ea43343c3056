import { describe, expect, it } from 'vitest';
import { channelName, channelProfile, encodeReplyLineBreaks } from '../../src/shared/channels';

describe('channel rules', () => {
  it('names the three channels and shows unknown codes by number, never dropping them', () => {
    expect([channelName('244'), channelName(19), channelName('9')]).toEqual(['Airbnb', 'Booking.com', 'Expedia']);
    expect(channelName(189)).toBe('channel 189');
    expect(channelProfile('150')).toMatchObject({ code: '150', reviewApi: null, replyRequires: [] });
  });

  it('encodes reply line breaks per channel: 244 backslash-n, 19 and 9 double backslash-n', () => {
    const text = 'Hello,\nsee you soon\r\nAnna';
    expect(encodeReplyLineBreaks(text, '244')).toBe('Hello,\\nsee you soon\\nAnna');
    expect(encodeReplyLineBreaks(text, '19')).toBe('Hello,\\\\nsee you soon\\\\nAnna');
    expect(encodeReplyLineBreaks(text, '9')).toBe(encodeReplyLineBreaks(text, '19'));
    expect(channelProfile('9').lineBreakConfirmed).toBe(false);
    expect(channelProfile('19').lineBreakConfirmed).toBe(true);
  });

  it('knows the required reply fields and which review API each channel uses', () => {
    expect(channelProfile('244')).toMatchObject({
      replyRequires: ['threadid', 'guestid', 'listingid'],
      reviewApi: 'legacy',
    });
    expect(channelProfile('19')).toMatchObject({ replyRequires: ['bookingid'], reviewApi: 'current' });
    expect(channelProfile('9')).toMatchObject({ replyRequires: ['bookingid'], reviewApi: 'current' });
  });
});
