import { describe, expect, it } from 'vitest';
import type { PropertySetup } from '@shared/rateSetups';
import { propertySetupSchema } from '@shared/rateSetups';
import { validationError } from '@shared/validation';
import {
  currencyOptions,
  duplicateIds,
  emptyWeek,
  KNOWN_CHANNELS,
  newRoom,
  toForm,
  toInput,
} from '@renderer/features/rates/setup/setupForm';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: 'Harbour View',
  channels: ['19', '244', '189'],
  rooms: [{ id: 'DBL', name: 'Double', inventory: 4, rates: [{ id: 'BAR', name: 'Best', price: 12.5 }] }],
};

describe('the property setup form', () => {
  it('starts empty with the three channels ticked and one room with one rate plan to fill in', () => {
    const form = toForm(null);
    expect(form).toMatchObject({ hotelId: '', name: '', channels: KNOWN_CHANNELS, otherChannels: [] });
    expect(form.rooms).toHaveLength(1);
    expect(form.rooms[0]).toMatchObject({ id: '', name: '', inventory: '', rates: [{ id: '', name: '', price: '' }] });
  });

  it('shows a saved property with its figures as text and the channels the form does not name offered too', () => {
    const form = toForm(setup);
    expect(form.channels).toEqual(['19', '244', '189']);
    expect(form.otherChannels).toEqual(['189']);
    expect(form.rooms[0]).toMatchObject({ id: 'DBL', inventory: '4', rates: [{ id: 'BAR', price: '12.5' }] });
    expect(toForm({ ...setup, rooms: [{ ...setup.rooms[0]!, inventory: null }] }).rooms[0]!.inventory).toBe('');
  });

  it('gives every row its own key, so the list keeps its rows apart', () => {
    const keys = [newRoom(), newRoom(), ...toForm(setup).rooms].flatMap((r) => [r.key, ...r.rates.map((p) => p.key)]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('saves trimmed ids, numbers read as the owner wrote them, and channels in the form’s order', () => {
    const form = toForm(setup);
    form.hotelId = ' H1 ';
    form.rooms[0]!.id = ' DBL ';
    form.rooms[0]!.inventory = ' ';
    form.rooms[0]!.rates[0]!.price = '99,5';
    expect(toInput(form)).toEqual({
      hotelId: 'H1',
      name: 'Harbour View',
      channels: ['244', '19', '189'],
      rooms: [{ id: 'DBL', name: 'Double', inventory: null, rates: [{ id: 'BAR', name: 'Best', price: 99.5 }] }],
    });
    form.rooms[0]!.inventory = 'four';
    expect(toInput(form).rooms![0]!.inventory).toBeNaN();
  });

  it('names rooms and rate plans listed twice, by field', () => {
    expect(
      duplicateIds({
        hotelId: 'H1',
        channels: ['19'],
        rooms: [
          { id: 'DBL', rates: [{ id: 'BAR' }, { id: 'BAR' }] },
          { id: 'DBL', rates: [{ id: 'BAR' }] },
          { id: '', rates: [] },
          { id: '', rates: [] },
        ],
      }),
    ).toEqual({
      'rooms.0.rates.1.id': 'Rate plan BAR is listed twice.',
      'rooms.1.id': 'Room DBL is listed twice.',
    });
  });
});

describe('base prices by day of the week, the currency, and the bounds of the figures', () => {
  const errorsOf = (form: ReturnType<typeof toForm>) => {
    const parsed = propertySetupSchema.safeParse(toInput(form));
    return parsed.success ? {} : (validationError(parsed.error).fields ?? {});
  };

  it('keeps a week of prices as typed, Monday first; an empty day takes the base price', () => {
    const form = toForm(setup);
    form.rooms[0]!.rates[0]!.week = emptyWeek();
    // A week with no day filled in is the same price every day.
    expect(toInput(form).rooms![0]!.rates![0]).not.toHaveProperty('weekPrices');
    form.rooms[0]!.rates[0]!.week![4] = '145';
    form.rooms[0]!.rates[0]!.week![5] = '145,5';
    expect(toInput(form).rooms![0]!.rates![0]!.weekPrices).toEqual([null, null, null, null, 145, 145.5, null]);
    const back = toForm({
      ...setup,
      rooms: [
        {
          ...setup.rooms[0]!,
          rates: [{ ...setup.rooms[0]!.rates[0]!, weekPrices: [null, null, null, null, 145, 145, null] }],
        },
      ],
    });
    expect(back.rooms[0]!.rates[0]!.week).toEqual(['', '', '', '', '145', '145', '']);
    expect(toForm(setup).rooms[0]!.rates[0]!.week).toBeNull();
  });

  it('offers every currency Intl knows, with its name, and saves the one chosen', () => {
    const options = currencyOptions('en-GB');
    expect(options.find((o) => o.code === 'EUR')?.label).toBe('EUR — Euro');
    expect(options.find((o) => o.code === 'DKK')?.label).toBe('DKK — Danish Krone');
    const form = toForm(setup);
    expect(form.currency).toBe('');
    expect(toInput(form)).not.toHaveProperty('currency');
    form.currency = 'EUR';
    expect(toInput(form).currency).toBe('EUR');
    expect(toForm({ ...setup, currency: 'EUR' }).currency).toBe('EUR');
  });

  it('refuses 1e9 as a base price, a day’s price or an inventory, under that field (the rule editor’s bound)', () => {
    const form = toForm(setup);
    form.rooms[0]!.inventory = '1e9';
    form.rooms[0]!.rates[0]!.price = '1e9';
    form.rooms[0]!.rates[0]!.week = emptyWeek();
    form.rooms[0]!.rates[0]!.week![6] = '2000000';
    expect(errorsOf(form)).toEqual({
      'rooms.0.inventory': 'The base inventory is at most 1,000,000.',
      'rooms.0.rates.0.price': 'The base price is at most 1,000,000.',
      'rooms.0.rates.0.weekPrices.6': 'The price is at most 1,000,000.',
    });
    form.rooms[0]!.inventory = '1000000';
    form.rooms[0]!.rates[0]!.price = '1000000';
    form.rooms[0]!.rates[0]!.week = null;
    expect(errorsOf(form)).toEqual({});
  });
});
