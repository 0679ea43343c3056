import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Delivery, ThreadDetail } from '@shared/inbox';
import { DRAFT_MAX_LENGTH, REPLY_MAX_LENGTH } from '@shared/inbox';
import { ok } from '@shared/result';
import FailedDelivery from '@renderer/features/inbox/replies/FailedDelivery.vue';
import ReplyComposer from '@renderer/features/inbox/replies/ReplyComposer.vue';
import ReplyEditor from '@renderer/features/inbox/replies/ReplyEditor.vue';
import { checkReply } from '@renderer/features/inbox/replies/replyCheck';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import QuarantineBanner from '@renderer/features/inbox/QuarantineBanner.vue';
import SavedRepliesMenu from '@renderer/features/savedReplies/SavedRepliesMenu.vue';
import SavedReplyForm from '@renderer/features/savedReplies/SavedReplyForm.vue';
import { installFakeApi } from './fakeApi';
import { $, byText, mountIt as mountWith } from './paymentsDom';

// Issue 13, points 3, 5, 6 and 7 in the renderer: what the composer holds back and says, what a dead-end refusal
// offers, and the inbox's quarantine banner.
let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});
const mountIt = <C>(component: C, props: Record<string, unknown> = {}) => mountWith(component, pinia, props);

/** A Booking.com conversation: Su's push carries only the booking id, no guest name, no dates. */
const bookingThread = {
  id: 7,
  channel: '19',
  channelName: 'Booking.com',
  guestName: null,
  listingName: null,
  checkIn: null,
  checkOut: null,
  hotelId: 'IK-DEMO-001',
  listingId: null,
  bookingId: '4711223344',
  threadRef: null,
  guestId: null,
  bookingFlag: null,
  guest: null,
  booking: null,
  messages: [],
  draft: null,
} as unknown as ThreadDetail;

function composerCore() {
  const drafts: string[] = [];
  installFakeApi({
    'savedReplies.list': () => ok([]),
    'inbox.saveDraft': (args: { body: string }) => (drafts.push(args.body), ok({ savedAt: 1 })),
  });
  return drafts;
}

async function typeReply(value: string) {
  const field = document.querySelector<HTMLTextAreaElement>('#reply-text')!;
  field.value = value;
  field.dispatchEvent(new Event('input'));
  await flushPromises();
}
const sendButton = () => $<HTMLButtonElement>('composer-send')!;

describe('the reply composer', () => {
  it('fills a saved reply with what a Booking.com conversation knows, names what is left and holds Send', async () => {
    composerCore();
    const wrapper = mountIt(ReplyComposer, { thread: bookingThread });
    wrapper
      .findComponent(SavedRepliesMenu)
      .vm.$emit('insert', 'Hi {{guest_first_name}}, booking {{booking_number}}: check-in on {{check_in}}.');
    await flushPromises();
    const text = document.querySelector<HTMLTextAreaElement>('#reply-text')!.value;
    expect(text).toBe('Hi {{guest_first_name}}, booking 4711223344: check-in on {{check_in}}.');
    // Issue 26: what is left is asked for under the reply, by name (the ask says it, not a second sentence).
    const asked = [...$('placeholder-ask')!.querySelectorAll('label')].map((l) => l.textContent);
    expect(asked).toEqual(['Guest’s first name', 'Arrival']);
    expect($('reply-placeholders')).toBeNull();
    expect(sendButton().disabled).toBe(true);
    expect(sendButton().title).toContain('{{guest_first_name}} and {{check_in}}');

    await typeReply('Hi Anna, booking 4711223344: check-in on 12 March.');
    expect($('reply-placeholders')).toBeNull();
    expect($('placeholder-ask')).toBeNull();
    expect(sendButton().disabled).toBe(false);
  });

  it('counts characters against the limit; a text too long to send is said so and still kept as the draft', async () => {
    const drafts = composerCore();
    const wrapper = mountIt(ReplyComposer, { thread: bookingThread });
    await typeReply('Hello');
    expect($('reply-counter')!.textContent).toContain(`5 / ${REPLY_MAX_LENGTH.toLocaleString()}`);
    expect($('reply-counter')!.dataset.tone).toBe('ok');

    const pasted = 'x'.repeat(26_600);
    await typeReply(pasted);
    expect($('reply-counter')!.dataset.tone).toBe('over');
    expect($('reply-too-long')!.textContent).toContain('kept as your draft');
    expect(sendButton().disabled).toBe(true);
    wrapper.unmount(); // leaving the conversation writes the draft at once
    await flushPromises();
    expect(drafts.at(-1)).toBe(pasted);
  });

  it('says when a text is beyond what even a draft keeps', () => {
    expect(checkReply('x'.repeat(DRAFT_MAX_LENGTH + 1)).tooLong).toContain('cannot be kept as a draft either');
    expect(checkReply('x'.repeat(REPLY_MAX_LENGTH + 1)).tooLong).toContain('The whole text is kept as your draft');
    expect(checkReply('x'.repeat(REPLY_MAX_LENGTH)).blocked).toBeNull();
  });
});

describe('editing a refused reply', () => {
  it('holds Save and send back while a placeholder is left, naming it', async () => {
    installFakeApi();
    mountIt(ReplyEditor, { outboxId: 3, body: 'Hello, see you at {{listing_name}}' });
    await flushPromises();
    expect($('reply-placeholders')!.textContent).toContain('{{listing_name}}');
    expect(byText('Save and send')!.closest('button')!.disabled).toBe(true);
    const field = document.querySelector<HTMLTextAreaElement>('textarea')!;
    field.value = 'Hello, see you at the Harbour View';
    field.dispatchEvent(new Event('input'));
    await flushPromises();
    expect($('reply-placeholders')).toBeNull();
    expect(byText('Save and send')!.closest('button')!.disabled).toBe(false);
  });
});

describe('a refused reply', () => {
  const refused = (providerCode: string): Delivery => ({
    outboxId: 3,
    state: 'failed',
    error: { code: 'provider', message: 'Property is inactive', providerCode, retryable: false },
  });

  it('on an inactive property (947) offers no Retry, and says to reply from the extranet or reactivate', async () => {
    installFakeApi();
    mountIt(FailedDelivery, { delivery: refused('947'), channelName: 'Booking.com', editable: true });
    expect(byText('Retry')).toBeUndefined();
    expect(byText('Edit')).toBeUndefined();
    expect(byText('Discard')).toBeDefined();
    const instead = $('delivery-instead')!.textContent!;
    expect(instead).toContain('Booking.com extranet');
    expect(instead).toContain('reactivate');
  });

  it('for another reason keeps Retry and Edit', async () => {
    installFakeApi();
    mountIt(FailedDelivery, { delivery: refused('497'), channelName: 'Booking.com', editable: true });
    expect(byText('Retry')).toBeDefined();
    expect(byText('Edit')).toBeDefined();
    expect($('delivery-instead')).toBeNull();
  });
});

describe('the saved-reply editor', () => {
  it('says which variables each channel fills', async () => {
    installFakeApi();
    mountIt(SavedReplyForm);
    const booking = document.querySelector('[data-testid="channel-variables"] [data-channel="19"]')!.textContent!;
    // Issue 26: what the app holds (the property, the channel) fills on every channel; the guest's name and the
    // dates once the owner added them to the booking.
    const all = document.querySelector('[data-testid="channel-variables"] [data-channel="all"]')!.textContent!;
    expect(all).toBe('Every conversation: {{listing_name}}, {{booking_number}}, {{property_name}}, {{channel_name}}');
    expect(booking).toContain(
      '{{guest_first_name}}, {{check_in}}, {{check_out}}, {{number_of_guests}} once you add them',
    );
    const airbnb = document.querySelector('[data-testid="channel-variables"] [data-channel="244"]')!.textContent!;
    expect(airbnb).toContain('{{guest_first_name}}');
    expect(airbnb).toContain('{{check_in}}');
  });
});

describe('the inbox’s quarantine banner', () => {
  it('gives the count and what the kept pushes looked like, linking to where they are listed', async () => {
    installFakeApi({
      'intake.quarantine': () =>
        ok([
          { id: 2, receivedAt: 2, reason: 'Looks like a review but does not fit it', kind: 'review', body: '{}' },
          { id: 1, receivedAt: 1, reason: 'Not a guest message or a review', kind: null, body: '{}' },
        ]),
    });
    const inbox = useInboxStore();
    mountIt(QuarantineBanner);
    expect($('quarantine-banner')).toBeNull();
    inbox.counts = { unreadThreads: 0, unreadReviews: 0, quarantined: 2 };
    await flushPromises();
    const text = $('quarantine-banner')!.textContent!;
    expect(text).toContain('2 deliveries');
    expect(text).toContain('a guest review and one other.');
    expect($<HTMLAnchorElement>('quarantine-banner-link')!.getAttribute('href')).toBe('/connection?show=quarantine');
  });
});
