import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { formatMinor, parseAmount } from '../../shared/money';
import type { z } from 'zod';
import type {
  cardLinkInputSchema,
  PaymentCreation,
  paymentDraftSchema,
  PaymentLinkEntry,
  PaymentPartner,
  PaymentProperty,
  PaymentsView,
  partnerEntrySchema,
  partnerInputSchema,
  TypedLink,
  widgetLinkInputSchema,
} from '../../shared/payments';
import { AppFailure, ErrorCode, errorText, type AppError } from '../../shared/result';
import { isLoopbackHttp } from '../../shared/su/common';
import type { Database } from '../db/database';
import type { ProviderClient } from '../provider/client';
import { isFinal, nextCheckAt, statusFromHost } from './checks';
import { paymentsStore, toLink, toPartner, type LinkColumns, type LinkRow } from './store';

type CardLink = z.output<typeof cardLinkInputSchema>;
type WidgetLink = z.output<typeof widgetLinkInputSchema>;
type PartnerFields = z.output<typeof partnerInputSchema>;
type PartnerEntered = z.output<typeof partnerEntrySchema>;
type Draft = z.output<typeof paymentDraftSchema>;

export interface PaymentsDeps {
  database: Database;
  now: () => number;
  /** The provider in use: accounts and links are kept per provider. */
  provider: () => string;
  /** The payment host's calls, with the credentials in use at the moment of the call. */
  host: () => ProviderClient['payments'];
  properties: () => PaymentProperty[];
  /** Whether the payment host's name and key are entered. */
  hostReady: () => { ready: boolean; message: string | null };
  /** Something changed; `paid` holds the links just seen paid. */
  changed: (paid: PaymentLinkEntry[]) => void;
}

const refusal = (field: string, message: string): AppError => ({
  code: ErrorCode.Validation,
  message,
  field,
  fields: { [field]: message },
  retryable: false,
});
const notFound = () =>
  new AppFailure({ code: 'not_found', message: 'This payment link is no longer in the ledger.', retryable: false });
const asError = (error: unknown): AppError =>
  error instanceof AppFailure ? error.error : { code: ErrorCode.Internal, message: errorText(error), retryable: true };

/**
 * A link address the app will hand out: https, or http on this computer (the built-in demo). Anything else (a
 * `javascript:` address, plain http on the internet) is never shown as a link to pay on.
 */
export function safeLinkUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || isLoopbackHttp(url);
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

/**
 * Partner accounts, the ledger of links and their status. Creating a link stores it first (a draft with what was
 * typed), then asks the host: a refusal or an unreachable host leaves the draft with the reason, so nothing typed
 * is lost; a link the host made is followed in the background until it is paid or failed.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { now } = deps;
  const store = paymentsStore(deps.database.db);
  const provider = () => deps.provider();
  const creating = new Set<number>();
  const checking = new Map<number, Promise<PaymentLinkEntry>>();

  const entry = (id: number) => {
    const row = store.link(provider(), id);
    if (!row) throw notFound();
    return row;
  };
  const partnerFor = (hotelId: string) => store.partner(provider(), hotelId);
  const nameOf = (hotelId: string) => deps.properties().find((p) => p.hotelId === hotelId)?.name ?? hotelId;

  /** The partner id may be only one property's account. */
  const partnerIdConflict = (hotelId: string, partnerId: string) =>
    store.partners(provider()).find((p) => p.partner_id === partnerId && p.hotel_id !== hotelId);

  function checkPartner(input: PartnerFields | PartnerEntered, email?: string) {
    const other = partnerIdConflict(input.hotelId, input.partner_id);
    if (other) {
      throw new AppFailure(
        refusal('partner_id', `${input.partner_id} is already the account of ${nameOf(other.hotel_id)}.`),
      );
    }
    if (email) {
      const taken = store
        .partners(provider())
        .find((p) => p.partner_id !== input.partner_id && p.email.toLowerCase() === email.toLowerCase());
      if (taken) {
        throw new AppFailure(
          refusal(
            'email_address',
            `This e-mail is already the address of ${taken.partner_id} (${nameOf(taken.hotel_id)}); the payment host takes one e-mail per account.`,
          ),
        );
      }
    }
  }

  /** Stores the draft (new, or the one given) with what was typed; answers its id. */
  function keepDraft(draftId: number | undefined, columns: LinkColumns & Pick<LinkRow, 'kind' | 'hotel_id'>): number {
    if (draftId === undefined) return store.insertLink(provider(), now(), columns);
    const row = entry(draftId);
    if (row.status !== 'draft') {
      throw new AppFailure({
        code: ErrorCode.Validation,
        message: 'This link was created already; make a new one for another payment.',
        retryable: false,
      });
    }
    store.updateLink(draftId, columns);
    return draftId;
  }

  /** Asks the host for the link and files the answer on the draft's row. */
  async function create(
    id: number,
    ask: () => Promise<{ url: string; transactionId: string | null }>,
  ): Promise<PaymentCreation> {
    if (creating.has(id)) {
      return { link: toLink(entry(id)), error: refusal('draftId', 'This link is being created already.') };
    }
    creating.add(id);
    try {
      const made = await ask();
      if (!safeLinkUrl(made.url)) {
        throw new AppFailure({
          code: ErrorCode.Provider,
          message: `The payment host made the link but answered an address that is not https (${made.url.slice(0, 80)}); it is not handed out. Ask the payment host, and use a new order id.`,
          retryable: false,
          // The host did make it: its order id counts as used.
          outcomeUnknown: true,
        });
      }
      const at = now();
      store.updateLink(id, {
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
      deps.changed([]);
      return { link: toLink(entry(id)), error: null };
    } catch (failure) {
      const error = asError(failure);
      store.updateLink(id, {
        error: JSON.stringify(error),
        // Once unknown, it stays so: the host may hold this order id already.
        ...(error.outcomeUnknown ? { outcome_unknown: 1 } : {}),
      });
      deps.changed([]);
      return { link: toLink(entry(id)), error };
    } finally {
      creating.delete(id);
    }
  }

  /** Asks the host for a link's status and files the answer. */
  async function check(row: LinkRow): Promise<PaymentLinkEntry> {
    if (!row.transaction_id || !row.partner_id) {
      throw new AppFailure(
        refusal('transactionId', 'This link has no transaction id: enter it to follow whether it was paid.'),
      );
    }
    const before = row.status;
    const at = now();
    try {
      const t = await deps.host().transactionStatus({ partner_id: row.partner_id, transaction_id: row.transaction_id });
      const status = statusFromHost(t.status, t.completed);
      const attempts = row.check_attempts + 1;
      store.updateLink(row.id, {
        status,
        host_status: t.status || null,
        gateway_txn_id: t.gatewayTransactionId || null,
        paid_amount: status === 'paid' ? t.amount || null : null,
        paid_currency: status === 'paid' ? t.currency || null : null,
        last_checked_at: at,
        check_attempts: attempts,
        check_error: null,
        settled_at: isFinal(status) ? (row.settled_at ?? at) : null,
        next_check_at: isFinal(status) ? null : nextCheckAt(attempts, at, row.requested_at),
      });
    } catch (failure) {
      const error = asError(failure);
      const attempts = row.check_attempts + 1;
      // The host does not know this transaction (or the account): asking again will not change that.
      const unknownToHost = !error.retryable && ['transaction_id', 'partner_id'].includes(error.field ?? '');
      store.updateLink(row.id, {
        last_checked_at: at,
        check_attempts: attempts,
        check_error: JSON.stringify(error),
        ...(unknownToHost
          ? { status: 'unknown', next_check_at: null }
          : { next_check_at: nextCheckAt(attempts, at, row.requested_at) }),
      });
    }
    const after = toLink(entry(row.id));
    deps.changed(after.status === 'paid' && before !== 'paid' ? [after] : []);
    return after;
  }

  /** One check per link at a time: a second caller waits for the first. */
  const checkOnce = (row: LinkRow) => {
    const running = checking.get(row.id);
    if (running) return running;
    const started = check(row).finally(() => checking.delete(row.id));
    checking.set(row.id, started);
    return started;
  };

  return {
    list(threadId?: number): PaymentsView {
      return {
        partners: store.partners(provider()).map(toPartner),
        links: store.links(provider(), threadId).map(toLink),
        properties: deps.properties(),
        host: deps.hostReady(),
      };
    },

    /** Creates (or updates) the property's account on the host, then keeps it. */
    async savePartner(input: PartnerFields): Promise<PaymentPartner> {
      checkPartner(input, input.email_address);
      const { hotelId, ...wire } = input;
      await deps.host().createPartner(wire);
      const at = now();
      store.putPartner({
        provider: provider(),
        hotel_id: hotelId,
        partner_id: wire.partner_id,
        name: wire.partner_name,
        email: wire.email_address,
        contact_name: wire.contact_name,
        contact_number: wire.contact_number,
        status: wire.status,
        currency: wire.currency_code,
        origin: 'created',
        created_at: at,
        updated_at: at,
      });
      deps.changed([]);
      return toPartner(partnerFor(hotelId)!);
    },

    /** Keeps an account made elsewhere, by its partner id (the host has no call to look it up). */
    enterPartner(input: PartnerEntered): PaymentPartner {
      checkPartner(input);
      const at = now();
      store.putPartner({
        provider: provider(),
        hotel_id: input.hotelId,
        partner_id: input.partner_id,
        name: input.partner_name ?? '',
        email: '',
        contact_name: '',
        contact_number: '',
        status: '',
        currency: input.currency_code,
        origin: 'entered',
        created_at: at,
        updated_at: at,
      });
      deps.changed([]);
      return toPartner(partnerFor(input.hotelId)!);
    },

    forgetPartner(hotelId: string): { forgotten: boolean } {
      const forgotten = store.forgetPartner(provider(), hotelId);
      if (forgotten) deps.changed([]);
      return { forgotten };
    },

    /** "IK-261123-7Q4K": the date and four random letters and digits, not used in this provider's ledger. */
    proposeOrderId(): { orderId: string } {
      const day = new Date(now()).toISOString().slice(2, 10).replace(/-/g, '');
      const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
      for (;;) {
        const suffix = [...randomBytes(4)].map((b) => alphabet[b % alphabet.length]).join('');
        const orderId = `IK-${day}-${suffix}`;
        if (!store.orderIdUsed(provider(), orderId)) return { orderId };
      }
    },

    saveDraft(draft: Draft): PaymentLinkEntry {
      const id = keepDraft(draft.id, {
        kind: draft.kind,
        hotel_id: draft.hotelId,
        thread_id: draft.threadId ?? null,
        partner_id: partnerFor(draft.hotelId)?.partner_id ?? null,
        typed: JSON.stringify(draft.typed),
        ...columnsFromTyped(draft.typed),
      });
      deps.changed([]);
      return toLink(entry(id));
    },

    deleteDraft(id: number): { deleted: boolean } {
      const deleted = store.deleteDraft(provider(), id);
      if (deleted) deps.changed([]);
      return { deleted };
    },

    /** A card payment link: stored as a draft, checked here (account, order id), then made by the host. */
    async createLink(input: CardLink): Promise<PaymentCreation> {
      const partner = partnerFor(input.hotelId);
      const typed = typedOf(input, ['draftId', 'hotelId', 'threadId', 'amountMinor']);
      const id = keepDraft(input.draftId, {
        kind: 'card',
        hotel_id: input.hotelId,
        thread_id: input.threadId ?? null,
        partner_id: partner?.partner_id ?? null,
        amount_minor: input.amountMinor,
        currency: input.currency_code,
        order_id: input.order_id,
        booking_id: input.booking_id ?? null,
        customer_email: input.customer_email ?? null,
        contact_number: input.contact_number ?? null,
        return_url: input.return_url ?? null,
        for_whom: input.forWhom ?? null,
        purpose: input.purpose ?? null,
        typed: JSON.stringify(typed),
      });
      const local = !partner
        ? refusal('hotelId', `${nameOf(input.hotelId)} has no payment account yet: set one up first.`)
        : (() => {
            const used = store.orderIdTaken(provider(), partner.partner_id, input.order_id, id);
            if (!used) return null;
            const when = new Date(used.created_at).toISOString().slice(0, 10);
            const amount =
              used.amount_minor !== null && used.currency
                ? ` (${formatMinor(used.amount_minor, used.currency)} ${used.currency})`
                : '';
            return refusal(
              'order_id',
              `This order id is already used by the link of ${when}${amount}: choose another.`,
            );
          })();
      if (local) {
        store.updateLink(id, { error: JSON.stringify(local) });
        deps.changed([]);
        return { link: toLink(entry(id)), error: local };
      }
      // The amount goes as the canonical text with the currency's minor units, never through a float.
      const amount = formatMinor(input.amountMinor, input.currency_code);
      return create(id, () =>
        deps.host().createPaymentLink({
          partner_id: partner!.partner_id,
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
      const partner = partnerFor(input.hotelId);
      const id = keepDraft(input.draftId, {
        kind: 'widget',
        hotel_id: input.hotelId,
        thread_id: input.threadId ?? null,
        partner_id: partner?.partner_id ?? null,
        booking_id: input.booking_id,
        is_button: input.is_button ? 1 : 0,
        for_whom: input.forWhom ?? null,
        typed: JSON.stringify(typedOf(input, ['draftId', 'hotelId', 'threadId'])),
      });
      if (!partner) {
        const error = refusal('hotelId', `${nameOf(input.hotelId)} has no payment account yet: set one up first.`);
        store.updateLink(id, { error: JSON.stringify(error) });
        deps.changed([]);
        return { link: toLink(entry(id)), error };
      }
      return create(id, () =>
        deps.host().createWidgetLink({
          partner_id: partner.partner_id,
          booking_id: input.booking_id,
          is_button: input.is_button,
        }),
      );
    },

    /** The owner gives the link's transaction id; it is asked about at once. */
    async setTransaction(id: number, transactionId: string): Promise<PaymentLinkEntry> {
      const row = entry(id);
      if (row.status === 'draft') {
        throw new AppFailure(refusal('transactionId', 'Create the link first; a draft has no transaction.'));
      }
      store.updateLink(id, {
        transaction_id: transactionId,
        transaction_source: 'owner',
        status: row.status === 'paid' ? 'paid' : 'requested',
        check_attempts: 0,
        check_error: null,
        next_check_at: now(),
      });
      return checkOnce(entry(id));
    },

    checkNow: (id: number) => checkOnce(entry(id)),

    /** The link whose host transaction this is (the demo's pay button), checked at once. */
    async checkTransaction(transactionId: string): Promise<PaymentLinkEntry | null> {
      const row = store.links(provider()).find((r) => r.transaction_id === transactionId && r.status !== 'draft');
      return row ? checkOnce(row) : null;
    },

    /** Checks what is due, one link at a time; answers how many were asked. */
    async checkDue(limit = 10): Promise<number> {
      const due = store.due(provider(), now(), limit);
      for (const row of due) await checkOnce(row).catch(() => undefined);
      return due.length;
    },

    async qr(id: number): Promise<{ url: string; dataUrl: string }> {
      const row = entry(id);
      if (!row.url) throw new AppFailure(refusal('url', 'This link has not been created yet: it has no address.'));
      const dataUrl = await QRCode.toDataURL(row.url, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
      return { url: row.url, dataUrl };
    },

    /** Waits for checks in flight (shutdown). */
    settle: () => Promise.allSettled([...checking.values()]).then(() => undefined),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

/** Checks what is due every `tickMs` while started; one round at a time; the timer never keeps the process alive. */
export function createPaymentsPoller(service: PaymentsService, tickMs = 5_000, onError = console.error) {
  let timer: ReturnType<typeof setInterval> | null = null;
  let round: Promise<unknown> | null = null;
  const tick = () => {
    if (round) return;
    round = service
      .checkDue()
      .catch((error: unknown) => onError(`payments: ${errorText(error)}`))
      .finally(() => (round = null));
  };
  return {
    start(): void {
      if (timer) return;
      tick();
      timer = setInterval(tick, tickMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await round;
      await service.settle();
    },
  };
}
