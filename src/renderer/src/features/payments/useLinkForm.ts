import { computed, nextTick, reactive, ref, shallowRef } from 'vue';
import { linkRuleFor, type PaymentKind, type PaymentLinkEntry } from '@shared/payments';
import type { AppError } from '@shared/result';
import {
  cardInput,
  emptyForm,
  fromEntry,
  linkErrors,
  TEXT_FIELDS,
  toTyped,
  typedSomething,
  widgetInput,
  type LinkContext,
} from './linkForm';
import { isAppError, usePaymentsStore } from './paymentsStore';
import { useFormErrors } from './useFormErrors';

const LAST_PROPERTY_KEY = 'innkeeper.payments.hotelId';
const CARD_FIELDS = ['hotelId', ...TEXT_FIELDS];
const WIDGET_FIELDS = ['hotelId', 'booking_id', 'is_button', 'forWhom'];

/**
 * The link dialog's state: the form as typed, its checks, the draft it is kept as, and the link once the host made
 * it. A request the host refused or could not take becomes a draft row at once (the core keeps it); closing the
 * dialog with something typed keeps it as a draft too, so nothing typed is lost.
 */
export function useLinkForm() {
  const payments = usePaymentsStore();
  const kind = ref<PaymentKind>('card');
  const form = reactive(emptyForm());
  /** What the dialog filled in itself: closing with only that keeps nothing. */
  const start = shallowRef(emptyForm());
  /** The app filled `key` in itself: it does not count as typed. */
  const fill = (key: 'currency_code' | 'order_id', value: string) => {
    form[key] = value;
    start.value = { ...start.value, [key]: value };
  };
  const context = shallowRef<LinkContext>({});
  const draftId = ref<number | null>(null);
  const created = shallowRef<PaymentLinkEntry | null>(null);
  /** Why the draft opened was not created: the host may have made it already when the answer was lost. */
  const outcomeUnknown = ref(false);
  const busy = ref(false);
  const proposing = ref(false);
  /**
   * Which opening of the dialog this is: an answer that arrives after the dialog was closed and opened again
   * (a draft kept, an order id proposed, a link created) belongs to the form before, and changes nothing here.
   */
  let generation = 0;

  const extra = () => ({ threadId: context.value.threadId ?? null, draftId: draftId.value });
  const partner = computed(() => payments.partnerFor(form.hotelId));
  /** Another link of the account has this order id already (drafts do not count: they hold no order at the host). */
  const orderTaken = computed(() => {
    const id = form.order_id.trim();
    if (kind.value !== 'card' || !id) return null;
    const account = partner.value?.partnerId;
    const same = (l: PaymentLinkEntry) => l.partnerId === account && l.orderId === id;
    return payments.links.find((l) => l.id !== draftId.value && l.status !== 'draft' && same(l)) ?? null;
  });
  const check = useFormErrors(
    () => {
      const own = linkErrors(kind.value, form, extra());
      if (!form.hotelId) own.hotelId = 'Choose the property the payment is for.';
      else if (!partner.value) own.hotelId = 'This property has no partner account yet: set one up first.';
      if (orderTaken.value && !own.order_id)
        own.order_id = 'Another link has this order id already: press New for another one.';
      return own;
    },
    { fields: () => (kind.value === 'card' ? CARD_FIELDS : WIDGET_FIELDS), aliases: { partner_id: 'hotelId' } },
  );
  check.follow(() => ({ ...form }));

  /** Something typed that is not kept yet (closing keeps it as a draft). */
  const dirty = computed(() => !created.value && typedSomething(form, start.value));

  const rule = computed(() =>
    context.value.channel ? linkRuleFor(context.value.channel, !!context.value.hasBooking) : null,
  );

  /**
   * A fresh order id for the property (the owner may change it). It goes in only if the order id still holds what
   * it held when it was asked for: what the owner typed meanwhile stays.
   */
  async function proposeOrder(): Promise<void> {
    if (!form.hotelId) return;
    const { hotelId, order_id: before } = form;
    const asked = generation;
    proposing.value = true;
    try {
      const id = await payments.proposeOrderId(hotelId);
      if (id && asked === generation && hotelId === form.hotelId && form.order_id === before) fill('order_id', id);
    } finally {
      if (asked === generation) proposing.value = false;
    }
  }
  /** A property chosen: its account's currency, and an order id of its own, unless the owner typed them. */
  function chooseProperty(hotelId: string) {
    const before = form.hotelId;
    form.hotelId = hotelId;
    if (!hotelId || created.value) return;
    const currency = payments.partnerFor(hotelId)?.currency ?? '';
    const untouched = (key: 'currency_code' | 'order_id') =>
      !form[key] || (before !== hotelId && form[key] === start.value[key]);
    if (currency && untouched('currency_code')) fill('currency_code', currency);
    if (kind.value === 'card' && untouched('order_id')) void proposeOrder();
  }

  /** The property a new link is for unless the owner says: the last one used, else the only one there is. */
  function defaultProperty(): string {
    const properties = payments.view?.properties ?? [];
    const last = localStorage.getItem(LAST_PROPERTY_KEY);
    if (properties.some((p) => p.hotelId === last)) return last!;
    const withAccount = properties.filter((p) => payments.partnerFor(p.hotelId));
    if (withAccount.length === 1) return withAccount[0]!.hotelId;
    return properties.length === 1 ? properties[0]!.hotelId : '';
  }

  /** A new form, from a conversation or the Payments screen; or a draft (or refused row) opened again. */
  async function open(next: { context?: LinkContext; draft?: PaymentLinkEntry | null; kind?: PaymentKind }) {
    const opening = ++generation;
    busy.value = false;
    proposing.value = false;
    // The accounts as they are now (one may have been set up since): what is loaded serves meanwhile.
    const reading = payments.load();
    if (!payments.view) await reading;
    if (opening !== generation) return;
    created.value = null;
    check.reset();
    const draft = next.draft ?? null;
    context.value = draft ? { ...next.context, threadId: draft.threadId } : (next.context ?? {});
    kind.value = draft?.kind ?? next.kind ?? 'card';
    draftId.value = draft?.id ?? null;
    outcomeUnknown.value = !!draft?.outcomeUnknown;
    const values = draft ? fromEntry(draft) : emptyForm(context.value);
    if (!draft && !values.hotelId) values.hotelId = defaultProperty();
    start.value = { ...values };
    Object.assign(form, values);
    chooseProperty(values.hotelId);
    // An account the loaded accounts did not have yet gives its currency once read.
    void reading.then(() => {
      if (opening === generation && form.hotelId && !form.currency_code) chooseProperty(form.hotelId);
    });
    // After the form's own change is seen, so that the draft's reasons stay until the owner edits their fields.
    await nextTick();
    if (draft?.error) check.refuse(draft.error);
  }

  /** Asks the host for the link; answers whether it was made. */
  async function create(): Promise<boolean> {
    if (!check.attempt()) return false;
    busy.value = true;
    const asked = generation;
    try {
      const answer =
        kind.value === 'card'
          ? await payments.createLink(cardInput(form, extra()))
          : await payments.createWidget(widgetInput(form, extra()));
      // Closed and opened again meanwhile: the row is in the ledger, the new form is not about it.
      if (asked !== generation) return false;
      if (isAppError(answer)) {
        check.refuse(answer);
        return false;
      }
      // Refused or not reached: the row is a draft now, and the next try turns it into the link.
      draftId.value = answer.link.id;
      start.value = { ...form };
      outcomeUnknown.value = !!answer.error?.outcomeUnknown;
      check.refuse(answer.error);
      if (answer.error) return false;
      created.value = answer.link;
      localStorage.setItem(LAST_PROPERTY_KEY, answer.link.hotelId);
      return true;
    } finally {
      if (asked === generation) busy.value = false;
    }
  }

  /** The dialog closes: what was typed and not created is kept as a draft. Answers the draft, if one was kept. */
  async function keep(): Promise<PaymentLinkEntry | AppError | null> {
    if (!dirty.value) return null;
    const typed = { ...form };
    const asked = generation;
    const kept = await payments.saveDraft({
      ...(draftId.value ? { id: draftId.value } : {}),
      kind: kind.value,
      hotelId: form.hotelId,
      ...(context.value.threadId ? { threadId: context.value.threadId } : {}),
      typed: toTyped(typed),
    });
    // The dialog may stay open (the window was only hidden): the next save or creation is this same draft. Opened
    // again meanwhile, the form is another one (a new link, or another draft) and stays as it is.
    if (!isAppError(kept) && asked === generation) {
      draftId.value = kept.id;
      start.value = typed;
    }
    return kept;
  }

  return {
    kind,
    form,
    context,
    draftId,
    created,
    outcomeUnknown,
    dirty,
    busy,
    proposing,
    partner,
    rule,
    errors: check.errors,
    unplaced: check.unplaced,
    refusal: check.refusal,
    touch: check.touch,
    proposeOrder,
    chooseProperty,
    open,
    create,
    keep,
  };
}
