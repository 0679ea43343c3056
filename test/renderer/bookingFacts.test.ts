import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AddedFacts, ThreadDetail } from '@shared/inbox';
import { ok, type AppError } from '@shared/result';
import { threadValues } from '@shared/savedReplies';
import BookingDetails from '@renderer/features/inbox/BookingDetails.vue';
import { unsavedFacts } from '@renderer/features/inbox/bookingFacts';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import ReplyComposer from '@renderer/features/inbox/replies/ReplyComposer.vue';
import SavedRepliesMenu from '@renderer/features/savedReplies/SavedRepliesMenu.vue';
import { installFakeApi } from './fakeApi';
import { $, click, mountIt as mountWith, type } from './paymentsDom';

// Issue 26, item 1, in the renderer: the owner adds to a Booking.com booking what the channel did not send, in its
// card; and a reply's placeholder the conversation cannot fill is asked for under the reply box.

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
  unsavedFacts.clear();
});
const mountIt = <C>(component: C, props: Record<string, unknown> = {}) => mountWith(component, pinia, props);

/** A Booking.com conversation at Old Town Loft: Su's push carries only the booking id. */
const thread = (added: AddedFacts | null = null): ThreadDetail => ({
  id: 7,
  channel: '19',
  channelName: 'Booking.com',
  guestName: added?.guestName ?? null,
  guestLabel: added?.guestName ?? 'Booking 9499891092',
  hotelId: 'IK-DEMO-002',
  propertyName: 'Old Town Loft',
  listingName: null,
  preview: 'We will arrive late',
  lastMessageAt: 1,
  unread: 0,
  needsReply: true,
  checkIn: added?.checkIn ?? null,
  checkOut: added?.checkOut ?? null,
  done: false,
  hasDraft: false,
  listingId: null,
  bookingId: '9499891092',
  threadRef: null,
  guestId: null,
  bookingFlag: 'B',
  guest: null,
  booking: null,
  messages: [],
  draft: null,
  added,
});

/** A fake core that keeps what is added (as the core does: only the fields given change) or refuses with `refusal`. */
function bookingCore(refusal: AppError | null = null) {
  const saved: unknown[] = [];
  let added: AddedFacts = { guestName: null, checkIn: null, checkOut: null, guests: null };
  installFakeApi({
    'savedReplies.list': () => ok([]),
    'inbox.saveDraft': () => ok({ savedAt: 1 }),
    'inbox.saveBookingFacts': (args: { threadId: number } & Partial<AddedFacts>) => {
      saved.push(args);
      if (refusal) return { ok: false, error: refusal };
      const { threadId: _, ...facts } = args;
      added = { ...added, ...facts };
      return ok(thread(added));
    },
  });
  return saved;
}

const reply = () => document.querySelector<HTMLTextAreaElement>('#reply-text')!;

describe('the booking card of a Booking.com conversation', () => {
  it('says what the channel did not send, and takes the guest and the stay once', async () => {
    const saved = bookingCore();
    const inbox = useInboxStore();
    inbox.openId = 7;
    inbox.thread = thread();
    const card = mountIt(BookingDetails, { thread: thread() });
    expect($('booking-reference')!.textContent).toBe('9499891092');
    expect($('booking')!.textContent).toContain('Booking.com sends no guest name or dates with its messages');

    await click('booking-facts-edit');
    expect($('booking-facts-form')).not.toBeNull();
    await type('fact-guestName', 'Marguerite');
    await type('fact-checkIn', '2026-12-04');
    await type('fact-checkOut', '2026-12-07');
    await type('fact-guests', '2');
    expect($<HTMLInputElement>('fact-checkOut')!.min).toBe('2026-12-04');
    $<HTMLFormElement>('booking-facts-form')!.requestSubmit();
    await flushPromises();
    expect(saved).toEqual([
      { threadId: 7, guestName: 'Marguerite', checkIn: '2026-12-04', checkOut: '2026-12-07', guests: 2 },
    ]);
    // The open thread follows; the card shows what was added, and says whose it is.
    expect(inbox.thread!.guestLabel).toBe('Marguerite');
    await card.setProps({ thread: inbox.thread });
    expect($('booking-facts-form')).toBeNull();
    // A small window (happy-dom's 1024 px) folds the card to one line that names the guest and the stay.
    expect($('booking-summary')!.textContent).toMatch(/^Marguerite · .+ · 3 nights · 2 guests$/);
    await click('booking-toggle');
    expect($('booking-guest-name')!.textContent).toBe('Marguerite');
    expect($('booking-nights')!.textContent).toBe('3');
    expect($('booking-guests')!.textContent).toBe('2 guests');
    expect($('booking-reference')!.textContent).toBe('9499891092');
    expect($('booking-added')!.textContent).toContain('Added by you');
  });

  it('names the field the core refuses, and keeps what was typed when another conversation is opened', async () => {
    bookingCore({
      code: 'validation',
      message: 'The departure date must be after the arrival date.',
      field: 'checkOut',
      retryable: false,
    });
    const card = mountIt(BookingDetails, { thread: thread() });
    await click('booking-facts-edit');
    await type('fact-checkIn', '2026-12-04');
    await type('fact-checkOut', '2026-12-01');
    await type('fact-guests', '2.5');
    $<HTMLFormElement>('booking-facts-form')!.requestSubmit();
    await flushPromises();
    expect($('fact-guests-error')!.textContent).toContain('Guests must be a whole number.');
    await type('fact-guests', '2');
    $<HTMLFormElement>('booking-facts-form')!.requestSubmit();
    await flushPromises();
    expect($('fact-checkOut-error')!.textContent).toContain('The departure date must be after the arrival date.');

    await card.setProps({ thread: { ...thread(), id: 8 } });
    expect($('booking-facts-form')).toBeNull();
    await card.setProps({ thread: thread() });
    expect($<HTMLInputElement>('fact-checkOut')!.value).toBe('2026-12-01');
  });
});

describe('a placeholder the conversation cannot fill', () => {
  const WELCOME =
    'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at {{listing_name}} on {{check_in}}.';

  it('is asked for under the reply: the value goes into the text and, as a booking fact, onto the booking', async () => {
    const saved = bookingCore();
    const inbox = useInboxStore();
    inbox.openId = 7;
    inbox.thread = thread();
    const composer = mountIt(ReplyComposer, { thread: thread() });
    composer.findComponent(SavedRepliesMenu).vm.$emit('insert', WELCOME);
    await flushPromises();
    // The listing is the property (the app holds its name); the guest and the date are asked for.
    expect(reply().value).toBe(
      'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at Old Town Loft on {{check_in}}.',
    );
    expect($<HTMLButtonElement>('composer-send')!.disabled).toBe(true);
    const ask = $('placeholder-ask')!;
    expect([...ask.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Guest’s first name', 'Arrival']);
    expect(ask.textContent).toContain('kept on this booking too');

    await type('ask-guest_first_name', 'Marguerite');
    await type('ask-check_in', '2026-12-04');
    await click('ask-fill');
    expect(saved).toEqual([{ threadId: 7, guestName: 'Marguerite', checkIn: '2026-12-04' }]);
    expect(reply().value).toMatch(/^Hi Marguerite, thank you .* at Old Town Loft on .*2026\.$/);
    expect(reply().value).not.toContain('{{');
    expect($('placeholder-ask')).toBeNull();
    expect($<HTMLButtonElement>('composer-send')!.disabled).toBe(false);
    expect(threadValues(inbox.thread!).guest_first_name).toBe('Marguerite');
  });

  it('fills what is no booking fact into the text only, and asks for nothing it cannot fill', async () => {
    const saved = bookingCore();
    const composer = mountIt(ReplyComposer, { thread: { ...thread(), bookingId: null, propertyName: 'IK-DEMO-002' } });
    composer.findComponent(SavedRepliesMenu).vm.$emit('insert', 'Your booking {{booking_number}} at {{listing_name}}.');
    await flushPromises();
    const ask = $('placeholder-ask')!;
    expect([...ask.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Booking number', 'Listing name']);
    expect(ask.textContent).not.toContain('kept on this booking');
    await click('ask-fill');
    expect($('ask-booking_number-error')!.textContent).toContain('Type the booking number');
    await type('ask-booking_number', '123');
    await type('ask-listing_name', 'the loft');
    await click('ask-fill');
    expect(saved).toEqual([]);
    expect(reply().value).toBe('Your booking 123 at the loft.');

    // A {{placeholder}} that is no variable is said, not asked for.
    reply().value = 'Hello {{nickname}}';
    reply().dispatchEvent(new Event('input'));
    await flushPromises();
    expect($('placeholder-ask')).toBeNull();
    expect($('reply-placeholders')!.textContent).toContain('{{nickname}}');
  });

  it('fills itself when the booking is given the value in its card', async () => {
    bookingCore();
    const composer = mountIt(ReplyComposer, { thread: thread() });
    composer.findComponent(SavedRepliesMenu).vm.$emit('insert', 'Hi {{guest_first_name}}!');
    await flushPromises();
    await composer.setProps({
      thread: thread({ guestName: 'Marguerite', checkIn: null, checkOut: null, guests: null }),
    });
    expect(reply().value).toBe('Hi Marguerite!');
  });
});
