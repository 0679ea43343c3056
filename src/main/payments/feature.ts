import type { Environment } from '../../shared/environments';
import type { FeatureContext } from '../featureContext';
import { paymentsHandlers, paymentsNews, type PaymentNotifier } from './handlers';
import { createPaymentsPoller, createPaymentsService } from './paymentsService';

/**
 * Payments: partner accounts and the ledger of links, per provider; links followed in the background until paid
 * or failed. Another provider in use is another ledger, so a provider change is news to the screen.
 */
export function createPaymentsFeature(context: FeatureContext & { notifier?: Partial<PaymentNotifier> | undefined }) {
  const { connection, events, profiles } = context;
  const notifier = context.notifier?.paymentReceived ? (context.notifier as PaymentNotifier) : undefined;
  const payments = createPaymentsService({
    database: context.database,
    now: context.now,
    provider: () => connection.active(),
    host: (provider) => connection.provider(provider as Environment).payments,
    properties: () => context.properties().map((p) => ({ hotelId: p.hotelId, name: p.name })),
    hostReady: () => {
      const profile = profiles.resolve(connection.active());
      const ready = Boolean(profile.paymentApiName && profile.secrets.paymentApiKey);
      return {
        ready,
        message: ready ? null : 'Enter the payment host’s API name and key on the Connection screen to make links.',
      };
    },
    changed: paymentsNews({ events, notifier }),
  });
  const poller = createPaymentsPoller(payments);
  events.on('connection.changed', () => queueMicrotask(() => events.emit('payments.changed', { paid: [] })));
  return {
    payments,
    handlers: paymentsHandlers({ payments }),
    start: () => poller.start(),
    stop: () => poller.stop(),
  };
}
