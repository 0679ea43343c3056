import { defineFeature } from '@renderer/lib/feature';
import { useNoticesStore } from './notices/noticesStore';
import { useNoticeAlerts } from './notices/useNoticeAlerts';

/**
 * The property record, its facilities, photos and Airbnb's notices: the Property screen, the unseen notices (the
 * navigation badge) and their alerts.
 */
export const propertyFeature = defineFeature({
  name: 'property',
  routes: [
    {
      // One screen: the property and the tab are in the address (a notice's alert opens its property's notices).
      path: '/property',
      children: [
        {
          path: ':hotelId?/:tab(details|facilities|notices|photos)?',
          name: 'property',
          component: () => import('./PropertyView.vue'),
        },
      ],
    },
  ],
  nav: {
    path: '/property',
    title: 'Property',
    icon: 'pi pi-building',
    order: 30,
    badge() {
      const { unseen } = useNoticesStore();
      return { count: unseen, what: unseen === 1 ? 'unseen notice' : 'unseen notices' };
    },
  },
  shell() {
    const notices = useNoticesStore();
    const alerts = useNoticeAlerts();
    return {
      load: () => notices.loadUnseen(),
      listen: () => notices.listen(),
      onToastClick: alerts.onToastClick,
    };
  },
});
