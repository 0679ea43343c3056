import { localToday } from '../../shared/dates';
import type { FeatureContext } from '../featureContext';
import type { Outbox } from '../outbox/outbox';
import type { ProviderClient } from '../provider/client';
import { ratesHandlers } from './handlers';
import { RATES_KIND, ratesMarkSentRefusal, ratesSender, type RatesSenders } from './pushes';
import { createRatesService } from './ratesService';

/** The outbox's sender of rate and availability pushes (the client looked up at each send). */
export const ratesOutbox = (client: () => ProviderClient) => ({
  senders: { [RATES_KIND]: ratesSender((request) => client().rates.send(request), localToday) } satisfies RatesSenders,
  markSentRefusals: { [RATES_KIND]: ratesMarkSentRefusal },
});

/** Rates and availability: the properties' setups, drafts, previews, pushes through the outbox and their history. */
export function createRatesFeature(
  context: Pick<FeatureContext, 'database' | 'now' | 'events'> & {
    outbox: Outbox<RatesSenders>;
    outboxChanged: () => void;
  },
) {
  const rates = createRatesService({ database: context.database, outbox: context.outbox, now: context.now });
  return { rates, ...ratesHandlers({ rates, events: context.events, outboxChanged: context.outboxChanged }) };
}
