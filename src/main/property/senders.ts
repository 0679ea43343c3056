import type { FacilitySet, PropertyUpdate } from '../../shared/property';
import { AppFailure } from '../../shared/result';
import type { OutboxItem } from '../outbox/types';
import type { ProviderClient } from '../provider/client';
import type { PropertyService } from './propertyService';

/** The outbox kinds of the property feature: Su's property update (endpoint 4) and facility set (endpoint 3). */
export const PROPERTY_KINDS = { details: 'property-update', facilities: 'facility-set' } as const;
export type PropertySenders = {
  [PROPERTY_KINDS.details]: (request: PropertyUpdate) => Promise<unknown>;
  [PROPERTY_KINDS.facilities]: (request: FacilitySet) => Promise<unknown>;
};
const KINDS = new Set<string>(Object.values(PROPERTY_KINDS));

/**
 * The outbox's sender of a facility set. A request that creates instances (some sent without `instance_id`) is
 * never repeated by itself: when Su answers with a server error or no answer comes, Su may have created them, so
 * the push stops for the owner (check the extranet, then mark it as sent or send it again) instead of being
 * retried into a second car park.
 */
export function facilitySender(send: (request: FacilitySet) => Promise<unknown>) {
  return async (request: FacilitySet): Promise<unknown> => {
    try {
      return await send(request);
    } catch (error) {
      const creates = request.facilities.some((f) => f.instances?.some((i) => i.instance_id === undefined));
      if (!(error instanceof AppFailure) || !creates) throw error;
      const e = error.error;
      const serverSide = e.retryable === true && e.code !== 'network' && (e.httpStatus ?? 500) >= 500;
      if (!serverSide && !e.outcomeUnknown) throw error;
      throw new AppFailure({
        ...e,
        retryable: false,
        outcomeUnknown: true,
        message: `${e.message} Su may have created the new instances anyway: check the facilities in the Booking.com extranet, then mark this change as sent or send it again.`,
      });
    }
  };
}
export const isPropertyKind = (kind: string) => KINDS.has(kind);

/** The outbox's senders of property work (the client looked up at each send) and what may not be marked sent. */
export function propertyOutbox(property: () => PropertyService, client: () => ProviderClient) {
  const refusal = (item: OutboxItem) => property().markSentRefusal(item);
  return {
    senders: {
      [PROPERTY_KINDS.details]: (request) => client().property.update(request),
      [PROPERTY_KINDS.facilities]: facilitySender((request) => client().property.setFacilities(request)),
    } satisfies PropertySenders,
    markSentRefusals: { [PROPERTY_KINDS.details]: refusal, [PROPERTY_KINDS.facilities]: refusal },
  };
}
