import type { Environment } from '../../shared/environments';
import { connectionFeature } from '../connection/feature';
import { defineFeature, guardedNotifier } from '../feature';
import { ratesFeature } from '../rates/feature';
import { paymentsHandlers, paymentsNews, type PaymentNotifier } from './handlers';
import { PAYMENTS_MIGRATIONS } from './migrations';
import { createPaymentsPoller, createPaymentsService } from './paymentsService';

/**
 * Payments: partner accounts and the ledger of links, per provider; links followed in the background until paid
 * or failed. Another provider in use is another ledger, so a provider change is news to the screen. Host option
 * `notifier.paymentReceived`: a native notification of a payment.
 */
export const paymentsFeature = defineFeature({
  name: 'payments',
  migrations: PAYMENTS_MIGRATIONS,
  create(context) {
    const { events } = context;
    const { connection, profiles } = context.use(connectionFeature);
    const rates = context.use(ratesFeature);
    const notifier = guardedNotifier<Partial<PaymentNotifier>>(context);
    const payments = createPaymentsService({
      database: context.database,
      now: context.now,
      provider: () => connection.active(),
      host: (provider) => connection.provider(provider as Environment).payments,
      properties: () => rates.properties().map((p) => ({ hotelId: p.hotelId, name: p.name })),
      hostReady: () => {
        const profile = profiles.resolve(connection.active());
        const ready = Boolean(profile.paymentApiName && profile.secrets.paymentApiKey);
        return {
          ready,
          message: ready ? null : 'Enter the payment host’s API name and key on the Connection screen to make links.',
        };
      },
      changed: paymentsNews({
        events,
        notifier: notifier?.paymentReceived ? (notifier as PaymentNotifier) : undefined,
      }),
    });
    const poller = createPaymentsPoller(payments);
    context.bus.on('connectionChanged', () => {
      queueMicrotask(() => events.emit('payments.changed', { paid: [] }));
      // Another provider's links are followed now.
      poller.poke();
    });
    // The provider answers elsewhere now (the demo's port was taken): its links are at the new address.
    context.bus.on('providerMoved', ({ provider, from, to }) => payments.moveLinks(provider, from, to));
    return {
      handlers: paymentsHandlers({ payments }),
      start: () => poller.start(),
      stop: () => poller.stop(),
    };
  },
});
