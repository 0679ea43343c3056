import type { FacilitySet, PropertyUpdate } from '../../shared/property';
import { AppFailure } from '../../shared/result';
import type { OutboxKind } from '../outbox/types';

/** The outbox kinds of the property feature: Su's property update (endpoint 4) and facility set (endpoint 3). */
export const PROPERTY_KINDS = { details: 'property-update', facilities: 'facility-set' } as const;
export type PropertyKinds = {
  [PROPERTY_KINDS.details]: OutboxKind<PropertyUpdate>;
  [PROPERTY_KINDS.facilities]: OutboxKind<FacilitySet>;
};
/** What a property push belongs to in the outbox: the details, or the facilities of the property or a room. */
export const propertyKey = (hotelId: string, scope: string) => `property:${hotelId}:${scope}`;

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
