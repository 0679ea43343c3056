import { defineFeature, SHELL_SIDEBAR } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';
import ConnectionBadge from './ConnectionBadge.vue';
import { useConnectionStore } from './connectionStore';
import { CONNECTION_AFTER, CONNECTION_FORM, CONNECTION_GUIDE } from './slots';

/**
 * The provider Innkeeper talks to and its keys: the Connection screen (whose sections later features fill), the
 * badge at the sidebar's foot, and the settings read at start. Without them no screen can show.
 */
export const connectionFeature = defineFeature({
  name: 'connection',
  routes: [
    {
      path: '/connection',
      component: () => import('./ConnectionView.vue'),
      meta: { sections: [CONNECTION_GUIDE, CONNECTION_FORM, CONNECTION_AFTER] },
    },
  ],
  nav: { path: '/connection', title: 'Connection', icon: 'pi pi-link', order: 50 },
  sections: [section(SHELL_SIDEBAR, { component: ConnectionBadge })],
  shell() {
    const connection = useConnectionStore();
    return {
      load: () => connection.load(),
      listen: () => connection.listen(),
      blocked: () => connection.loadError?.message ?? null,
    };
  },
});
