import { connectionFeature } from '../connection/feature';
import { defineFeature } from '../feature';
import { outboxFeature } from '../outbox/feature';
import { outboxFor } from '../outbox/outbox';
import { ratesFeature } from '../rates/feature';
import { propertyHandlers } from './handlers';
import { PROPERTY_MIGRATIONS } from './migrations';
import { createPropertyService } from './propertyService';
import { facilitySender, PROPERTY_KINDS, type PropertyKinds } from './senders';

/**
 * The property record and facilities at Booking.com through Su: drafts as typed, previews and pushes through the
 * outbox, history and revert, per provider.
 */
export const propertyFeature = defineFeature({
  name: 'property',
  migrations: PROPERTY_MIGRATIONS,
  create(context) {
    const { connection } = context.use(connectionFeature);
    const rates = context.use(ratesFeature);
    const property = createPropertyService({
      database: context.database,
      provider: () => connection.active(),
      outbox: outboxFor<PropertyKinds>(context.use(outboxFeature)),
      now: context.now,
      setup: (hotelId) => {
        const setup = rates.properties().find((p) => p.hotelId === hotelId);
        return setup ? { name: setup.name, roomIds: setup.rooms.map((r) => r.id) } : null;
      },
    });
    const feature = propertyHandlers({ property, events: context.events });
    // Each push goes out through the client in use when it is sent; the tab showing its part refreshes on each move.
    const client = () => connection.provider();
    const outboxKinds: PropertyKinds = {
      [PROPERTY_KINDS.details]: property.outboxKind((request) => client().property.update(request), feature.changed),
      [PROPERTY_KINDS.facilities]: property.outboxKind(
        facilitySender((request) => client().property.setFacilities(request)),
        feature.changed,
      ),
    };
    return {
      outboxKinds,
      handlers: feature.handlers,
      /** Pushes Su confirmed before the app stopped, whose record was not written, are applied first. */
      start: () => void property.recover(),
    };
  },
});
