import { localToday } from '../../shared/dates';
import { connectionFeature } from '../connection/feature';
import { defineFeature } from '../feature';
import { outboxFeature } from '../outbox/feature';
import { outboxFor } from '../outbox/outbox';
import { ratesHandlers } from './handlers';
import { RATES_MIGRATIONS } from './migrations';
import { RATES_KIND, ratesSender, type RatesKinds } from './pushes';
import { createRatesService } from './ratesService';

/**
 * Rates and availability: the properties the owner set up (rooms and rate plans: Su cannot list them), drafts,
 * previews, pushes through the outbox and their history. Provides `properties()`, the properties set up, which the
 * property, photos, notices and payments features show and check.
 */
export const ratesFeature = defineFeature({
  name: 'rates',
  migrations: RATES_MIGRATIONS,
  create(context) {
    const { connection } = context.use(connectionFeature);
    const rates = createRatesService({
      database: context.database,
      outbox: outboxFor<RatesKinds>(context.use(outboxFeature)),
      now: context.now,
    });
    // Each push goes out through the client in use when it is sent; its property's calendar refreshes on each move.
    const send = ratesSender((request) => connection.provider().rates.send(request), localToday);
    const outboxKinds: RatesKinds = {
      [RATES_KIND]: rates.outboxKind(send, (hotelId) => context.events.emit('rates.changed', { hotelId })),
    };
    return {
      outboxKinds,
      handlers: ratesHandlers({ rates }),
      provides: { properties: () => rates.properties() },
      /** Pushes Su confirmed before the app stopped, whose record was not written, are applied first. */
      start: () => void rates.recover(),
    };
  },
});
