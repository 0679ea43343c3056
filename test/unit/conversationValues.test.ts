import { describe, expect, it } from 'vitest';
import { guestLabel } from '../../src/main/inbox/inboxQueries';
import { conversationValues, fillTemplate, threadValues } from '../../src/shared/savedReplies';

const facts = (over: Partial<Parameters<typeof conversationValues>[0]> = {}) => ({
  channel: '244',
  firstName: null,
  bookingId: null,
  bookingFlag: null,
  confirmationCode: null,
  checkIn: null,
  checkOut: null,
  listingName: null,
  ...over,
});

describe('the values a conversation fills in', () => {
  it('an Airbnb enquiry’s booking id is its thread, never a booking number', () => {
    const enquiry = facts({ bookingId: 'thread-778', bookingFlag: 'T', firstName: null });
    expect(conversationValues(enquiry).booking_number).toBeNull();
    expect(guestLabel(enquiry)).toBe('Enquiry');
    // The composer leaves the variable visible (and so blocks Send) rather than giving the guest the thread id.
    const thread = {
      channel: '244',
      guest: null,
      guestName: 'Anna',
      booking: null,
      bookingId: 'thread-778',
      bookingFlag: 'T',
      checkIn: null,
      checkOut: null,
      listingName: null,
    };
    expect(fillTemplate('Your booking {{booking_number}}', threadValues(thread))).toBe(
      'Your booking {{booking_number}}',
    );
  });

  it('an Airbnb booking gives its confirmation code, else its booking id', () => {
    expect(
      conversationValues(facts({ bookingId: '555', bookingFlag: 'B', confirmationCode: 'HMABC' })).booking_number,
    ).toBe('HMABC');
    expect(conversationValues(facts({ bookingId: '555', bookingFlag: 'B' })).booking_number).toBe('555');
    expect(guestLabel(facts({ bookingId: '555', bookingFlag: 'B' }))).toBe('Booking 555');
    // An enquiry that already has a confirmation code (booked since) gives the code.
    expect(
      conversationValues(facts({ bookingId: 'thread-1', bookingFlag: 'T', confirmationCode: 'HMX' })).booking_number,
    ).toBe('HMX');
  });

  it('Booking.com and Expedia give their booking id; names, dates and listing as known', () => {
    expect(conversationValues(facts({ channel: '19', bookingId: ' 4242 ' })).booking_number).toBe('4242');
    expect(guestLabel(facts({ channel: '9', bookingId: '77' }))).toBe('Booking 77');
    const values = threadValues(
      {
        channel: '244',
        guest: { id: null, firstName: 'Tom', location: null, locale: null },
        guestName: 'T.',
        booking: {
          checkIn: '2030-05-01',
          checkOut: '2030-05-03',
          nights: 2,
          guests: 2,
          adults: 2,
          children: 0,
          infants: 0,
          payout: null,
          confirmationCode: 'HMQ',
          listingName: 'Loft',
        },
        bookingId: 'thread-9',
        bookingFlag: 'B',
        checkIn: null,
        checkOut: null,
        listingName: null,
      },
      (d) => `day ${d}`,
    );
    expect(values).toEqual({
      guest_first_name: 'Tom',
      check_in: 'day 2030-05-01',
      check_out: 'day 2030-05-03',
      number_of_guests: '2',
      listing_name: 'Loft',
      property_name: null,
      channel_name: null,
      booking_number: 'HMQ',
    });
  });
});
