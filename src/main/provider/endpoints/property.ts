import { facilitySetSchema, type FacilitySet } from '../../../shared/su/facilities';
import { propertyUpdateSchema, type PropertyUpdate } from '../../../shared/su/property';
import { isSuccess } from '../envelope';
import { callEndpoint, pathInText, pick, type ProviderContext } from '../request';

const text = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** Endpoint 3: create or update facilities of the property, or of one room. App id + API key auth. */
export function setFacilities(
  ctx: ProviderContext,
  input: FacilitySet,
): Promise<{ message: string; ruid: string | null; data: unknown }> {
  return callEndpoint(
    ctx,
    {
      what: 'Saving the facilities',
      host: 'main',
      path: '/jservice/bdc/facilities/set',
      auth: 'facility',
      schema: facilitySetSchema,
      parse: (body) =>
        isSuccess(body)
          ? {
              message: text(pick(body, 'Message', 'message'), 'Facilities saved'),
              ruid: (pick(body, 'Ruid') as string) || null,
              // Empty in the published sample; kept as answered, in case Su returns the ids of created instances.
              data: pick(body, 'Data', 'data') ?? null,
            }
          : null,
      // 400 invalid hotel code, 573 no channel mapping; a deserialization message names the field path.
      fieldFor: (p) =>
        p.code === '400' ? 'hotel_id' : p.code === '573' ? 'channel_hotel_id' : (p.field ?? pathInText(p.text)),
    },
    input,
  );
}

/** Endpoint 4: update the property record on the hotel channel. */
export function updateProperty(
  ctx: ProviderContext,
  input: PropertyUpdate,
): Promise<{ propertyId: string; message: string }> {
  return callEndpoint(
    ctx,
    {
      what: 'Updating the property',
      host: 'main',
      path: '/jservice/bdc/property/update',
      auth: 'bearer',
      schema: propertyUpdateSchema,
      parse: (body) => {
        if (!isSuccess(body)) return null;
        const data = pick(body, 'Data', 'data') as { property_id?: unknown } | undefined;
        return {
          propertyId: String(data?.property_id ?? input.hotel_id),
          message: text(pick(body, 'Message', 'message'), 'Property updated'),
        };
      },
      fieldFor: (p) => (/legal entity|contract/i.test(p.text) ? 'legal_entity_id' : (p.field ?? pathInText(p.text))),
    },
    input,
  );
}
