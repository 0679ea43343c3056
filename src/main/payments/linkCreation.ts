import type { z } from 'zod';
import { formatMinor, minorDigits, parseAmount } from '../../shared/money';
import type {
  cardLinkInputSchema,
  PaymentCreation,
  paymentDraftSchema,
  PaymentLinkEntry,
  TypedLink,
  widgetLinkInputSchema,
} from '../../shared/payments';
import { AppFailure, ErrorCode } from '../../shared/result';
import { isLoopbackHttp } from '../../shared/su/common';
import { nextCheckAt } from './checks';
import { asError, refusal, type PaymentsContext } from './context';
import { toLink, type LinkColumns, type LinkRow } from './paymentsSql';

type CardLink = z.output<typeof cardLinkInputSchema>;
type WidgetLink = z.output<typeof widgetLinkInputSchema>;
type Draft = z.output<typeof paymentDraftSchema>;

/**
 * A link address the app will hand out: https, or, from the built-in demo provider only (it runs on this computer),
 * http on loopback. Anything else (a `javascript:` address, plain http on the internet, or a real provider's link
 * to this computer) is never shown as a link to pay on.
 */
export function safeLinkUrl(url: string, provider: string): boolean {
  try {
    return new URL(url).protocol === 'https:' || (provider === 'demo' && isLoopbackHttp(url));
  } catch {
    return false;
  }
}

/** What was typed, as text (drafts keep it as the owner wrote it). */
function typedOf(input: Record<string, unknown>, skip: string[]): TypedLink {
  const typed: TypedLink = {};
  for (const [key, value] of Object.entries(input)) {
    if (skip.includes(key) || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'boolean') typed[key] = value;
    else if (typeof value === 'number') typed[key] = String(value);
  }
  return typed;
}

/** The ledger's columns from a draft as typed: what can be read from it, for the row to say what it is. */
function columnsFromTyped(typed: TypedLink): LinkColumns {
  const text = (key: string) => {
    const v = typed[key];
    return typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null;
  };
  const currency = text('currency_code')?.toUpperCase() ?? null;
  const amount = currency ? parseAmount(text('amount') ?? '', currency) : null;
  return {
    currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null,
    amount_minor: amount?.ok ? amount.minor : null,
    minor_digits: currency ? minorDigits(currency) : null,
    order_id: text('order_id'),
    booking_id: text('booking_id'),
    for_whom: text('forWhom'),
    purpose: text('purpose'),
    customer_email: text('customer_email'),
    contact_number: text('contact_number'),
    return_url: text('return_url'),
    is_button: typeof typed.is_button === 'boolean' ? (typed.is_button ? 1 : 0) : null,
  };
}

const beingCreated = () =>
  new AppFailure({ code: ErrorCode.Validation, message: 'This link is being created right now.', retryable: true });

/**
 * Drafts and the links made from them. A link is stored first (a draft with what was typed), checked here, then
 * marked as possibly sent in the same synchronous step that precedes the request — so a quit or a crash while the
 * request is out leaves a draft that says the host may hold it — and filed with the host's answer.
 */
export function createLinkCreation(ctx: PaymentsContext) {
  const { store, deps, now } = ctx;
  const creating = new Set<string>();
  const key = (provider: string, id: number) => `${provider}:${id}`;

  /** Stores the draft (new, or the one given) with what was typed; answers its id. */
  function keepDraft(
    provider: string,
    draftId: number | undefined,
    columns: LinkColumns & Pick<LinkRow, 'kind' | 'hotel_id'>,
  ) {
    if (draftId === undefined) return store.insertLink(provider, now(), columns);
    if (creating.has(key(provider, draftId))) throw beingCreated();
    if (ctx.rowOf(provider, draftId).status !== 'draft') {
      throw new AppFailure({
        code: ErrorCode.Validation,
        message: 'This link was created already; make a new one for another payment.',
        retryable: false,
      });
    }
    try {
      store.updateLink(provider, draftId, columns);
    } catch {
      // The unique index: this draft may have reached the host, and another link holds the order id it now has.
      throw new AppFailure(refusal('order_id', 'Another link uses this order id: choose another.'));
    }
    return draftId;
  }

  /** Files a refusal on the draft and answers it. */
  const refused = (provider: string, id: number, error: ReturnType<typeof refusal>): PaymentCreation => {
    store.updateLink(provider, id, { error: JSON.stringify(error) });
    deps.changed([]);
    return { link: toLink(ctx.rowOf(provider, id)), error };
  };

  /** Marks the draft as possibly sent, asks the host, and files the answer. Called with nothing awaited before. */
  async function create(
    provider: string,
    id: number,
    ask: () => Promise<{ url: string; transactionId: string | null }>,
  ): Promise<PaymentCreation> {
    const wasUnknown = ctx.rowOf(provider, id).outcome_unknown === 1;
    try {
      store.updateLink(provider, id, { outcome_unknown: 1, error: null });
    } catch {
      // The unique index: another link of this account holds the order id (or is being sent with it).
      return refused(provider, id, refusal('order_id', 'This order id is being used by another link: choose another.'));
    }
    creating.add(key(provider, id));
    deps.changed([]);
    try {
      const made = await ask();
      if (!safeLinkUrl(made.url, provider)) {
        throw new AppFailure({
          code: ErrorCode.Provider,
          message: `The payment host made the link but answered an address that is not https (${made.url.slice(0, 80)}); it is not handed out. Ask the payment host, and use a new order id.`,
          retryable: false,
          // The host did make it: its order id stays used.
          outcomeUnknown: true,
        });
      }
      const at = now();
      store.updateLink(provider, id, {
        status: 'requested',
        url: made.url,
        transaction_id: made.transactionId,
        transaction_source: made.transactionId ? 'host' : null,
        requested_at: at,
        next_check_at: made.transactionId ? nextCheckAt(0, at, at) : null,
        check_attempts: 0,
        typed: null,
        error: null,
        outcome_unknown: 0,
      });
      return { link: toLink(ctx.rowOf(provider, id)), error: null };
    } catch (failure) {
      const error = asError(failure);
      // A definite refusal means the host made nothing; once an answer went missing, the draft stays "maybe made".
      store.updateLink(provider, id, {
        error: JSON.stringify(error),
        outcome_unknown: error.outcomeUnknown || wasUnknown ? 1 : 0,
      });
      return { link: toLink(ctx.rowOf(provider, id)), error };
    } finally {
      creating.delete(key(provider, id));
      deps.changed([]);
    }
  }

  const noAccount = (hotelId: string) =>
    refusal('hotelId', `${ctx.nameOf(hotelId)} has no payment account yet: set one up first.`);

  return {
    saveDraft(draft: Draft): PaymentLinkEntry {
      const provider = deps.provider();
      const id = keepDraft(provider, draft.id, {
        kind: draft.kind,
        hotel_id: draft.hotelId,
        thread_id: draft.threadId ?? null,
        partner_id: store.partner(provider, draft.hotelId)?.partner_id ?? null,
        typed: JSON.stringify(draft.typed),
        ...columnsFromTyped(draft.typed),
      });
      deps.changed([]);
      return toLink(ctx.rowOf(provider, id));
    },

    deleteDraft(id: number): { deleted: boolean } {
      const provider = deps.provider();
      if (creating.has(key(provider, id))) throw beingCreated();
      const deleted = store.deleteDraft(provider, id);
      if (deleted) deps.changed([]);
      return { deleted };
    },

    /** A card payment link: stored as a draft, checked here (account, order id), then made by the host. */
    // Async for its errors only: everything up to the request runs in one synchronous step (see `create`).
    async createLink(input: CardLink): Promise<PaymentCreation> {
      const provider = deps.provider();
      const partner = store.partner(provider, input.hotelId);
      const id = keepDraft(provider, input.draftId, {
        kind: 'card',
        hotel_id: input.hotelId,
        thread_id: input.threadId ?? null,
        partner_id: partner?.partner_id ?? null,
        amount_minor: input.amountMinor,
        minor_digits: minorDigits(input.currency_code),
        currency: input.currency_code,
        order_id: input.order_id,
        booking_id: input.booking_id ?? null,
        customer_email: input.customer_email ?? null,
        contact_number: input.contact_number ?? null,
        return_url: input.return_url ?? null,
        for_whom: input.forWhom ?? null,
        purpose: input.purpose ?? null,
        typed: JSON.stringify({
          ...typedOf(input, ['draftId', 'hotelId', 'threadId', 'amountMinor', 'amountTyped']),
          amount: input.amountTyped,
        }),
      });
      if (!partner) return refused(provider, id, noAccount(input.hotelId));
      const used = store.orderIdTaken(provider, partner.partner_id, input.order_id, id);
      if (used) {
        const when = new Date(used.created_at).toISOString().slice(0, 10);
        const amount =
          used.amount_minor !== null && used.currency
            ? ` (${formatMinor(used.amount_minor, used.currency)} ${used.currency})`
            : '';
        const message = `This order id is already used by the link of ${when}${amount}: choose another.`;
        return refused(provider, id, refusal('order_id', message));
      }
      // The amount goes as the canonical text with the currency's minor units, never through a float.
      const amount = formatMinor(input.amountMinor, input.currency_code);
      return create(provider, id, () =>
        deps.host(provider).createPaymentLink({
          partner_id: partner.partner_id,
          amount,
          currency_code: input.currency_code,
          order_id: input.order_id,
          ...(input.customer_email ? { customer_email: input.customer_email } : {}),
          ...(input.contact_number ? { contact_number: input.contact_number } : {}),
          ...(input.return_url ? { return_url: input.return_url } : {}),
        }),
      );
    },

    /** A widget link for a booking: a button or a page. */
    async createWidget(input: WidgetLink): Promise<PaymentCreation> {
      const provider = deps.provider();
      const partner = store.partner(provider, input.hotelId);
      const id = keepDraft(provider, input.draftId, {
        kind: 'widget',
        hotel_id: input.hotelId,
        thread_id: input.threadId ?? null,
        partner_id: partner?.partner_id ?? null,
        booking_id: input.booking_id,
        is_button: input.is_button ? 1 : 0,
        for_whom: input.forWhom ?? null,
        typed: JSON.stringify(typedOf(input, ['draftId', 'hotelId', 'threadId'])),
      });
      if (!partner) return refused(provider, id, noAccount(input.hotelId));
      return create(provider, id, () =>
        deps.host(provider).createWidgetLink({
          partner_id: partner.partner_id,
          booking_id: input.booking_id,
          is_button: input.is_button,
        }),
      );
    },
  };
}
