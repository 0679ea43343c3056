import type { z } from 'zod';
import type { PaymentPartner, PaymentsView, partnerEntrySchema, partnerInputSchema } from '../../shared/payments';
import { randomBytes } from 'node:crypto';
import { AppFailure } from '../../shared/result';
import { createPoller } from '../lib/poller';
import { paymentsContext, refusal, type PaymentsDeps } from './context';
import { createLinkCreation } from './linkCreation';
import { createStatusChecks } from './statusChecks';
import { toLink, toPartner } from './paymentsSql';

export type { PaymentsDeps } from './context';
export { safeLinkUrl } from './linkCreation';

type PartnerFields = z.output<typeof partnerInputSchema>;
type PartnerEntered = z.output<typeof partnerEntrySchema>;

/**
 * Payments: partner accounts (one per property, kept here because the host cannot list them), the ledger of links
 * (`linkCreation.ts`: drafts first, so nothing typed is lost) and their status (`statusChecks.ts`: followed in the
 * background until paid or failed). Everything is kept per provider, and each operation stays with the provider
 * it started on.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const ctx = paymentsContext(deps);
  const { store, now } = ctx;
  const links = createLinkCreation(ctx);
  const checks = createStatusChecks(ctx);

  /** A partner id is one property's account; an e-mail one account's (the host takes one e-mail per account). */
  function checkPartner(provider: string, input: PartnerFields | PartnerEntered, email?: string) {
    const partners = store.partners(provider);
    const other = partners.find((p) => p.partner_id === input.partner_id && p.hotel_id !== input.hotelId);
    if (other) {
      throw new AppFailure(
        refusal('partner_id', `${input.partner_id} is already the account of ${ctx.nameOf(other.hotel_id)}.`),
      );
    }
    const taken =
      email && partners.find((p) => p.partner_id !== input.partner_id && p.email.toLowerCase() === email.toLowerCase());
    if (taken) {
      throw new AppFailure(
        refusal(
          'email_address',
          `This e-mail is already the address of ${taken.partner_id} (${ctx.nameOf(taken.hotel_id)}); the payment host takes one e-mail per account.`,
        ),
      );
    }
  }

  return {
    /** When the provider in use has a link due to be asked next (epoch ms), or null. */
    nextDueAt: () => store.nextDueAt(deps.provider()),
    /** `listener` is told whenever a link's next check is written. */
    onScheduleWritten: (listener: () => void) => store.onScheduleWritten(listener),

    list(threadId?: number): PaymentsView {
      const provider = deps.provider();
      return {
        partners: store.partners(provider).map(toPartner),
        links: store.links(provider, threadId).map(toLink),
        properties: deps.properties(),
        host: deps.hostReady(),
      };
    },

    /** Creates (or updates) the property's account on the host, then keeps it. */
    async savePartner(input: PartnerFields): Promise<PaymentPartner> {
      const provider = deps.provider();
      checkPartner(provider, input, input.email_address);
      const { hotelId, ...wire } = input;
      await deps.host(provider).createPartner(wire);
      const at = now();
      store.putPartner({
        provider,
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
      return toPartner(store.partner(provider, hotelId)!);
    },

    /** Keeps an account made elsewhere, by its partner id (the host has no call to look it up). */
    enterPartner(input: PartnerEntered): PaymentPartner {
      const provider = deps.provider();
      checkPartner(provider, input);
      const at = now();
      store.putPartner({
        provider,
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
      return toPartner(store.partner(provider, input.hotelId)!);
    },

    forgetPartner(hotelId: string): { forgotten: boolean } {
      const forgotten = store.forgetPartner(deps.provider(), hotelId);
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
        if (!store.orderIdUsed(deps.provider(), orderId)) return { orderId };
      }
    },

    ...links,
    ...checks,

    /** The provider answers at another origin now (the demo's port was taken): its links are moved there. */
    moveLinks(provider: string, from: string[], to: string): void {
      if (store.moveLinks(provider, from, to) > 0) deps.changed([]);
    },

    async qr(id: number): Promise<{ url: string; dataUrl: string }> {
      const row = ctx.rowOf(deps.provider(), id);
      if (!row.url) throw new AppFailure(refusal('url', 'This link has not been created yet: it has no address.'));
      // Loaded on the first QR code, not at start (it brings a PNG encoder along).
      const { default: QRCode } = await import('qrcode');
      const dataUrl = await QRCode.toDataURL(row.url, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
      return { url: row.url, dataUrl };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

/**
 * Checks what is due while started, one round at a time: when the soonest link is due (never sooner than `tickMs`
 * after the last round), and once a minute when no link is followed. A link scheduled meanwhile (created, given its
 * transaction id, checked by the owner) times the next round again.
 */
export function createPaymentsPoller(service: PaymentsService, tickMs = 5_000, onError = console.error) {
  const poller = createPoller({
    name: 'payments',
    round: () => service.checkDue(),
    settle: service.settle,
    tickMs,
    onError,
    nextDue: service.nextDueAt,
  });
  service.onScheduleWritten(() => poller.poke());
  return poller;
}
