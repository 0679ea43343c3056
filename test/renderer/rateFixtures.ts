import type { PropertySetup } from '@shared/rateSetups';

/**
 * A property priced like the demo's: Double Room's rate plan at €120, €145 on Fridays and Saturdays, a base
 * inventory of 4; Twin Room with no base at all (its figures are not known).
 */
export const weekPricedSetup: PropertySetup = {
  hotelId: 'H1',
  name: '',
  currency: 'EUR',
  channels: ['244', '19'],
  rooms: [
    {
      id: 'DBL',
      name: 'Double Room',
      inventory: 4,
      rates: [{ id: 'BAR', name: 'Best', price: 120, weekPrices: [null, null, null, null, 145, 145, null] }],
    },
    { id: 'TWN', name: 'Twin', inventory: null, rates: [{ id: 'BAR', name: '', price: null }] },
  ],
};

/** The days of the week as the rule editor names its toggles, Monday first. */
export const WEEKDAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
