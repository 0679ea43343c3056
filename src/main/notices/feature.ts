import { connectionFeature } from '../connection/feature';
import { defineFeature, guardedNotifier } from '../feature';
import { outboxFeature } from '../outbox/feature';
import { ratesFeature } from '../rates/feature';
import { noticesHandlers, noticesNews, type NoticeNotifier } from './handlers';
import { NOTICES_MIGRATIONS } from './migrations';
import { createNoticesPoller, createNoticesService } from './noticesService';

/**
 * Airbnb notices: every property with Airbnb among its channels is checked in the background (not while Su is
 * known to be unreachable). Notices are kept per provider, so another provider in use is another badge count.
 * Host option `notifier.newNotice`: a native notification of a new notice.
 */
export const noticesFeature = defineFeature({
  name: 'notices',
  migrations: NOTICES_MIGRATIONS,
  create(context) {
    const { events, now } = context;
    const { connection } = context.use(connectionFeature);
    const outbox = context.use(outboxFeature);
    const rates = context.use(ratesFeature);
    const notifier = guardedNotifier<Partial<NoticeNotifier>>(context);
    const notices = createNoticesService({
      database: context.database,
      provider: () => connection.active(),
      now,
      fetch: (hotelId) => connection.provider().notifications.fetch({ hotelid: hotelId }),
      properties: () => rates.properties().flatMap((p) => (p.channels.includes('244') ? [p.hotelId] : [])),
      offline: () => (outbox.unreachableUntil() ?? 0) > now(),
      onChanged: noticesNews({ events, notifier: notifier?.newNotice ? (notifier as NoticeNotifier) : undefined }),
    });
    const poller = createNoticesPoller(notices);
    // Another provider is another set of notices: the badge follows, once the change has reached every listener.
    context.bus.on('connectionChanged', () =>
      queueMicrotask(() => events.emit('notices.changed', { unseen: notices.unseen(), added: [] })),
    );
    return {
      handlers: noticesHandlers({ notices: () => notices }),
      start: () => poller.start(),
      stop: () => poller.stop(),
    };
  },
});
