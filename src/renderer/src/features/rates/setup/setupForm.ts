import { currencyName, knownCurrencies, type PropertySetup, type PropertySetupInput } from '@shared/rateSetups';

/** The setup form as the owner types it: numbers stay text until saved, rows carry a key for the list. */
export interface RatePlanRow {
  key: number;
  id: string;
  name: string;
  price: string;
  /** Monday … Sunday as typed ("" for the base price); null: the same price every day. */
  week: string[] | null;
}
export interface RoomRow {
  key: number;
  id: string;
  name: string;
  inventory: string;
  rates: RatePlanRow[];
}
export interface SetupForm {
  hotelId: string;
  name: string;
  /** ISO 4217 code, "" when not given. */
  currency: string;
  channels: string[];
  /** Channel codes offered besides Airbnb, Booking.com and Expedia. */
  otherChannels: string[];
  rooms: RoomRow[];
}

/** The channels every property is offered, by name. */
export const KNOWN_CHANNELS = ['244', '19', '9'];

let nextKey = 1;
export const newRatePlan = (): RatePlanRow => ({ key: nextKey++, id: '', name: '', price: '', week: null });
/** Seven empty days: each takes the base price until the owner gives it its own. */
export const emptyWeek = () => Array.from({ length: 7 }, () => '');
export const newRoom = (): RoomRow => ({ key: nextKey++, id: '', name: '', inventory: '', rates: [newRatePlan()] });

const text = (n: number | null) => (n === null ? '' : String(n));

/** The form for a property (or an empty one, with the three channels ticked and one room to fill in). */
export function toForm(setup: PropertySetup | null): SetupForm {
  if (!setup)
    return {
      hotelId: '',
      name: '',
      currency: '',
      channels: [...KNOWN_CHANNELS],
      otherChannels: [],
      rooms: [newRoom()],
    };
  return {
    hotelId: setup.hotelId,
    name: setup.name,
    currency: setup.currency ?? '',
    channels: [...setup.channels],
    otherChannels: setup.channels.filter((c) => !KNOWN_CHANNELS.includes(c)),
    rooms: setup.rooms.map((room) => ({
      key: nextKey++,
      id: room.id,
      name: room.name,
      inventory: text(room.inventory),
      rates: room.rates.map((rate) => ({
        key: nextKey++,
        id: rate.id,
        name: rate.name,
        price: text(rate.price),
        week: rate.weekPrices ? rate.weekPrices.map(text) : null,
      })),
    })),
  };
}

/** Empty → no base figure; anything else a number (NaN for text, which the schema names as not a number). */
const number = (value: string) => (value.trim() === '' ? null : Number(value.trim().replace(',', '.')));

/** What is saved: channels in the order they are offered on the form. */
export function toInput(form: SetupForm): PropertySetupInput {
  const offered = [...KNOWN_CHANNELS, ...form.otherChannels];
  const currency = form.currency.trim();
  return {
    hotelId: form.hotelId.trim(),
    name: form.name,
    ...(currency ? { currency } : {}),
    channels: offered.filter((c) => form.channels.includes(c)),
    rooms: form.rooms.map((room) => ({
      id: room.id.trim(),
      name: room.name,
      inventory: number(room.inventory),
      rates: room.rates.map((rate) => {
        // A week left with every day empty is the same price every day.
        const week = rate.week?.some((d) => d.trim() !== '') ? rate.week.map(number) : undefined;
        return {
          id: rate.id.trim(),
          name: rate.name,
          price: number(rate.price),
          ...(week ? { weekPrices: week } : {}),
        };
      }),
    })),
  };
}

/** The currencies to choose from: "EUR — Euro", sorted by code. */
export function currencyOptions(locale?: string): { code: string; label: string }[] {
  return [...knownCurrencies()].sort().map((code) => ({ code, label: `${code} — ${currencyName(code, locale)}` }));
}

/**
 * Rooms and rate plans listed twice, by field path. The schema says so too, but only once every other field is
 * right; the form says it at once.
 */
export function duplicateIds(input: PropertySetupInput): Record<string, string> {
  const out: Record<string, string> = {};
  const rooms = new Set<string>();
  (input.rooms ?? []).forEach((room, i) => {
    if (room.id && rooms.has(room.id)) out[`rooms.${i}.id`] = `Room ${room.id} is listed twice.`;
    rooms.add(room.id);
    const plans = new Set<string>();
    (room.rates ?? []).forEach((rate, j) => {
      if (rate.id && plans.has(rate.id)) out[`rooms.${i}.rates.${j}.id`] = `Rate plan ${rate.id} is listed twice.`;
      plans.add(rate.id);
    });
  });
  return out;
}
