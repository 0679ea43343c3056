import { defineFeature } from '@renderer/lib/feature';
import { useInboxStore } from './inboxStore';
import { useNewMessageAlerts } from './useNewMessageAlerts';

/** How long the inbox's first navigation waits for its first page before it shows the placeholders. */
export const FIRST_PAGE_WAIT_MS = 400;

// One screen, three addresses: the thread list, an open thread (a notification opens it), and the reviews.
const InboxView = () => import('./InboxView.vue');

/**
 * Guest conversations and reviews: the home screen, its unread count (the navigation badge, the window title), the
 * alerts of new messages, and its first page asked for before the app mounts.
 */
export const inboxFeature = defineFeature({
  name: 'inbox',
  routes: [
    {
      path: '/inbox',
      children: [
        { path: '', name: 'inbox', component: InboxView },
        { path: ':threadId(\\d+)', name: 'thread', component: InboxView },
        { path: 'reviews/:reviewId(\\d+)?', name: 'reviews', component: InboxView },
      ],
    },
  ],
  nav: {
    path: '/inbox',
    title: 'Inbox',
    icon: 'pi pi-inbox',
    order: 10,
    badge: () => ({ count: useInboxStore().unreadTotal, what: 'unread' }),
  },
  shell() {
    const inbox = useInboxStore();
    const alerts = useNewMessageAlerts();
    return {
      load: () => inbox.loadCounts(),
      listen: () => inbox.listen(),
      // The lists, the open conversation and the reviews, where they were shown (messages may have come in while
      // the app restarted).
      reconnected() {
        if (inbox.total !== null) void inbox.loadList();
        inbox.reloadOpen();
      },
      // The list, the open conversation and the reviews, where shown, read again (the rows stay meanwhile).
      readAgain() {
        inbox.refreshList();
        inbox.reloadOpen();
      },
      onToastClick: alerts.onToastClick,
      titleCount: () => inbox.unreadTotal,
    };
  },
  firstScreen({ route, router, pinia }) {
    if (route.name !== 'inbox' && route.name !== 'thread') return;
    const inbox = useInboxStore(pinia);
    if (inbox.total !== null || inbox.listLoading) return;
    const firstPage = inbox.loadList();
    // The list is drawn once, with its rows, rather than as placeholders first and again when the rows come (two
    // renders of the screen where one does): the first navigation waits for the first page, or FIRST_PAGE_WAIT_MS.
    const stop = router.beforeResolve(async () => {
      stop();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([firstPage, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_PAGE_WAIT_MS)))]);
      clearTimeout(timer);
    });
  },
});
