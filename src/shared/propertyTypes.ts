// The kinds of property Booking.com knows, by their number: OpenTravel's Property Class Type (PCT) code list, which
// Booking.com's property API takes as `property_category`. The owner chooses by name; the number goes in the request.

/** OpenTravel PCT codes and their names. */
export const PROPERTY_TYPES: readonly { code: string; name: string }[] = [
  { code: '1', name: 'All suite' },
  { code: '2', name: 'All-inclusive resort' },
  { code: '3', name: 'Apartment' },
  { code: '4', name: 'Bed and breakfast' },
  { code: '5', name: 'Cabin or bungalow' },
  { code: '6', name: 'Campground' },
  { code: '7', name: 'Chalet' },
  { code: '8', name: 'Condominium' },
  { code: '9', name: 'Conference centre' },
  { code: '10', name: 'Corporate' },
  { code: '11', name: 'Corporate business transient' },
  { code: '12', name: 'Cruise' },
  { code: '13', name: 'Extended stay' },
  { code: '14', name: 'Ferry' },
  { code: '15', name: 'Guest farm' },
  { code: '16', name: 'Guest house' },
  { code: '17', name: 'Health spa' },
  { code: '18', name: 'Holiday resort' },
  { code: '19', name: 'Hostel' },
  { code: '20', name: 'Hotel' },
  { code: '21', name: 'Inn' },
  { code: '22', name: 'Lodge' },
  { code: '23', name: 'Meeting resort' },
  { code: '24', name: 'Mobile home' },
  { code: '25', name: 'Monastery' },
  { code: '26', name: 'Motel' },
  { code: '27', name: 'Ranch' },
  { code: '28', name: 'Residential apartment' },
  { code: '29', name: 'Resort' },
  { code: '30', name: 'Sailing ship' },
  { code: '31', name: 'Self-catering accommodation' },
  { code: '32', name: 'Tent' },
  { code: '33', name: 'Holiday home' },
  { code: '34', name: 'Villa' },
  { code: '35', name: 'Wildlife reserve' },
  { code: '36', name: 'Castle' },
  { code: '37', name: 'Convention network property' },
  { code: '38', name: 'Golf' },
  { code: '39', name: 'Pension' },
  { code: '40', name: 'Ski' },
  { code: '41', name: 'Spa' },
  { code: '42', name: 'Boatel' },
  { code: '43', name: 'Historic' },
  { code: '44', name: 'Recreational vehicle park' },
  { code: '45', name: 'Charm hotel' },
  { code: '46', name: 'Other' },
];

/** The name of a property type by its number ("20" → "Hotel"), or null for a number not in the list. */
export function propertyTypeName(code: string): string | null {
  const trimmed = code.trim();
  return PROPERTY_TYPES.find((t) => t.code === trimmed)?.name ?? null;
}

/** The number for what the owner typed: a number as it is, or a type's name ("hotel" → "20"); else null. */
export function propertyTypeCode(typed: string): string | null {
  const t = typed.trim();
  if (/^\d+$/.test(t)) return String(Number(t));
  return PROPERTY_TYPES.find((p) => p.name.toLowerCase() === t.toLowerCase())?.code ?? null;
}

/** The types whose name or number fits what is typed, the names starting with it first. */
export function searchPropertyTypes(query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return PROPERTY_TYPES.map((t) => t.code);
  const fits = PROPERTY_TYPES.filter((t) => t.code === q || t.name.toLowerCase().includes(q));
  const starts = (t: { name: string }) => (t.name.toLowerCase().startsWith(q) ? 0 : 1);
  return [...fits].sort((a, b) => starts(a) - starts(b)).map((t) => t.code);
}
