import type { FeatureContext } from '../featureContext';
import type { Outbox } from '../outbox/outbox';
import { propertyHandlers } from './handlers';
import { createPropertyService } from './propertyService';
import type { PropertySenders } from './senders';

/** The property record and facilities: drafts, previews and pushes through the outbox, per provider. */
export function createPropertyFeature(
  context: FeatureContext & { outbox: Outbox<PropertySenders>; outboxChanged: () => void },
) {
  const property = createPropertyService({
    database: context.database,
    provider: () => context.connection.active(),
    outbox: context.outbox,
    now: context.now,
    setup: (hotelId) => {
      const setup = context.properties().find((p) => p.hotelId === hotelId);
      return setup ? { name: setup.name, roomIds: setup.rooms.map((r) => r.id) } : null;
    },
  });
  return { property, ...propertyHandlers({ property, events: context.events, outboxChanged: context.outboxChanged }) };
}
