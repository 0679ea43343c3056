import { buildPush, merge, rememberReview, type PushKind } from './pushBodies';
import { deliver, type PushOutcome } from './pushDelivery';
import type { EmulatedProperty, EmulatorState } from './state';
import type { Json } from './validate';

// The demo provider's sample inbox: what a small host's inbox looks like on an ordinary day, delivered as real
// pushes (the same bodies and the same path as any other push), so that a new owner sees the whole inbox at once.

interface SamplePush {
  kind: PushKind;
  channel: string;
  body: Json;
}

/** A push of `kind` for `property`, shaped by `buildPush`, with the sample's own words on top. */
function sample(state: EmulatorState, kind: PushKind, channel: string, property: EmulatedProperty, over: Json) {
  return { kind, channel, body: merge(buildPush(state, kind, channel, property), over) };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date as a guest writes it: "Saturday 5 December" (from YYYY-MM-DD, never shifted by a time zone). */
export function spokenDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** A later message in the same conversation: same thread, guest and booking; a new message id. */
function followUp(first: SamplePush, message: string, fromHost = false): SamplePush {
  const messageid = `${String(first.body.messageid)}${fromHost ? 'h' : 'g'}${message.length}`;
  return {
    ...first,
    body: { ...first.body, messageid, message, ...(fromHost ? { message_type: 'property' } : {}) },
  };
}

/**
 * The sample set: six conversations on Airbnb, Booking.com and Expedia over two properties (an Airbnb enquiry and
 * an Airbnb booking with the host's own reply echoed back, Booking.com and Expedia bookings), three current reviews
 * (one that may be answered, one that may not, one with scores only) and one Airbnb review.
 */
export function sampleInbox(state: EmulatorState): SamplePush[] {
  const [harbour, loft] = state.properties.filter((p) => p.active) as [EmulatedProperty, EmulatedProperty];
  // Two adults and a baby (Airbnb counts no infant among its guests).
  const enquiry = sample(state, 'message', '244', loft, {
    bookingflag: 'T',
    booking_details: {
      reservation_confirmation_code: null,
      expected_payout_amount_accurate: null,
      number_of_adults: 2,
      number_of_children: 0,
      number_of_infants: 1,
      number_of_guests: 2,
    },
  });
  // What the guest asks for is what the enquiry's card shows: the same days, the same party.
  const asked = enquiry.body.booking_details as { checkin_date: string; checkout_date: string };
  enquiry.body.message =
    `Hi! Is the loft free from ${spokenDay(asked.checkin_date)} to ${spokenDay(asked.checkout_date)}? ` +
    'We would be two adults and a baby.';
  enquiry.body.bookingid = enquiry.body.threadid;
  const booked = sample(state, 'message', '244', harbour, {
    message: 'Hello! Our flight lands at 14:00. Could we leave our bags before check-in?',
  });
  const pushes: SamplePush[] = [
    enquiry,
    booked,
    followUp(booked, 'Hi, of course! Ring the bell at the front desk and we will keep them for you.', true),
    followUp(booked, 'Perfect, thank you so much!'),
    sample(state, 'message', '19', harbour, { message: 'Good evening, is breakfast included in our rate?' }),
    sample(state, 'message', '19', loft, { message: 'We will arrive late, around 23:00. Is that all right?' }),
    sample(state, 'message', '9', harbour, {
      message: 'Could we have a room on a higher floor, away from the street? My husband sleeps lightly.',
    }),
    sample(state, 'message', '9', loft, { message: 'Is there a washing machine we could use during our stay?' }),
    sample(state, 'review', '19', harbour, {
      review_title: 'A warm welcome by the harbour',
      review_description: 'Spotless room, a generous breakfast and the kindest staff.',
      review_negative_description: 'The street can be loud on Saturday night.',
    }),
    sample(state, 'review', '9', loft, {
      review_title: 'Great loft, tricky stairs',
      review_description: 'Beautiful space in the middle of the old town.',
      review_negative_description: 'Steep stairs with heavy suitcases.',
      is_eligible_to_respond: false,
    }),
    sample(state, 'review', '19', loft, {
      review_title: null,
      review_description: null,
      review_negative_description: null,
    }),
    sample(state, 'legacy-review', '244', harbour, {}),
  ];
  return pushes;
}

/** Delivers the sample set to the partner endpoint, one push after the other (each settled before the next). */
export async function deliverSampleInbox(state: EmulatorState): Promise<PushOutcome[]> {
  const outcomes: PushOutcome[] = [];
  for (const push of sampleInbox(state)) {
    rememberReview(state, push.kind, push.body);
    outcomes.push(await deliver(state, push.kind, push.channel, push.body));
  }
  return outcomes;
}

/** What guests write out of the blue, for the demo's "now and then" messages. */
const EVERYDAY_MESSAGES = [
  'Hi! Is there a supermarket close by that is open on Sundays?',
  'Could we check out an hour later, around 12:00?',
  'Is there a hairdryer in the bathroom?',
  'What is the best way to get to you from the train station?',
  'Is it possible to bring our small dog?',
  'We would love a restaurant tip for tonight. Anything you recommend?',
  'Can we pay the city tax by card when we arrive?',
  'Our train is delayed. We will be about an hour late, sorry!',
];

/** One everyday guest message in a new conversation, on a channel and property chosen at random. */
export function everydayMessage(state: EmulatorState): SamplePush {
  const properties = state.properties.filter((p) => p.active);
  const n = state.nextId('push');
  const property = properties[n % properties.length]!;
  const channel = ['244', '19', '9'][n % 3]!;
  return sample(state, 'message', channel, property, {
    message: EVERYDAY_MESSAGES[n % EVERYDAY_MESSAGES.length]!,
  });
}
