import { callEarly } from '@renderer/api';
import { defineFeature } from '@renderer/lib/feature';
import { RATES_PROPERTY_KEY } from './ratesProperty';

/** What the rates calendar shows of a property, asked for early. */
function ratesOf(hotelId: string) {
  callEarly('rates.book', { hotelId });
  callEarly('rates.history', { hotelId });
  callEarly('rates.draft', { hotelId });
}

/** Rooms, rate plans and the calendar: its screen, and its first data asked for before the app mounts. */
export const ratesFeature = defineFeature({
  name: 'rates',
  routes: [{ path: '/rates', component: () => import('./RatesView.vue') }],
  nav: { path: '/rates', title: 'Rates & availability', icon: 'pi pi-calendar', order: 20 },
  firstScreen({ route }) {
    if (route.path !== '/rates') return;
    // The calendar's first data, asked for while its code loads (the rates store takes the answers with callOnce):
    // the properties and, for an owner coming back, the book, history and draft of the property shown last time, or
    // else of the first one once the properties are there.
    const properties = callEarly('rates.properties', {});
    const remembered = localStorage.getItem(RATES_PROPERTY_KEY);
    if (remembered) ratesOf(remembered);
    else
      return properties
        .then((result) => result.ok && result.value[0] && ratesOf(result.value[0].hotelId))
        .catch(() => {});
  },
});
