import type { PaymentLinkEntry } from '../../shared/payments';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { PaymentsService } from './paymentsService';

/** What the host does when a payment goes through: a native notification (Electron). */
export interface PaymentNotifier {
  paymentReceived(link: PaymentLinkEntry): void;
}

/** The `payments.*` methods. */
export function paymentsHandlers(deps: { payments: PaymentsService }): HandlerSlice<'payments'> {
  const { payments } = deps;
  return {
    'payments.list': (args) => payments.list(args.threadId),
    'payments.savePartner': (args) => payments.savePartner(args),
    'payments.enterPartner': (args) => payments.enterPartner(args),
    'payments.forgetPartner': (args) => payments.forgetPartner(args.hotelId),
    'payments.proposeOrderId': () => payments.proposeOrderId(),
    'payments.saveDraft': (args) => payments.saveDraft(args),
    'payments.deleteDraft': (args) => payments.deleteDraft(args.id),
    'payments.createLink': (args) => payments.createLink(args),
    'payments.createWidget': (args) => payments.createWidget(args),
    'payments.setTransaction': (args) => payments.setTransaction(args.id, args.transactionId),
    'payments.checkNow': (args) => payments.checkNow(args.id),
    'payments.qr': (args) => payments.qr(args.id),
  };
}

/** The news of a change: the renderer hears it (and which links were just paid); the host notifies of each payment. */
export function paymentsNews(deps: { events: EventBus; notifier?: PaymentNotifier | undefined }) {
  return (paid: PaymentLinkEntry[]) => {
    deps.events.emit('payments.changed', { paid });
    for (const link of paid.slice(0, 3)) deps.notifier?.paymentReceived(link);
  };
}
