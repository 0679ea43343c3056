import { detailsFormOf, type DetailsView, type PropertyUpdate } from '@shared/property';

/** A property record Su confirmed, as the details tests start from. */
export const detailsRecord: PropertyUpdate = {
  hotel_id: 'H1',
  legal_entity_id: 'LE-1',
  position: { latitude: 51.5, longitude: -0.12 },
  check_in: { from: '15:00' },
  check_out: { until: '11:00' },
  property_name: 'Harbour View',
  property_category: 204,
  room_count: 4,
  target: 'production',
  physical_address: { city_name: 'London', country_code: 'GB', address_line: '1 Quay St', display_address: true },
};

/** The details tab of that record (or of another), with no draft and nothing on its way. */
export const detailsView = (over: Partial<DetailsView> = {}, record = detailsRecord): DetailsView => ({
  hotelId: 'H1',
  record,
  confirmedAt: 1_700_000_000_000,
  form: detailsFormOf(record),
  hasDraft: false,
  pending: null,
  ...over,
});
