import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import ConnectionView from './views/ConnectionView.vue';

/** What a screen shows in the navigation. Only screens that exist are listed. */
export interface NavMeta {
  title: string;
  icon: string;
}

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/connection' },
  {
    path: '/connection',
    component: ConnectionView,
    meta: { title: 'Connection', icon: 'pi pi-link' } satisfies NavMeta,
  },
  { path: '/:pathMatch(.*)*', redirect: '/connection' },
];

// Hash history: the same URLs work from file:// in Electron and from the loopback server in browser mode.
export const router = createRouter({ history: createWebHashHistory(), routes });
router.afterEach((to) => {
  const title = (to.meta as Partial<NavMeta>).title;
  document.title = title ? `${title} · Innkeeper` : 'Innkeeper';
});
