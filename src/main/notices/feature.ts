import type { FeatureContext } from '../featureContext';
import { noticesHandlers, noticesNews, type NoticeNotifier } from './handlers';
import { createNoticesPoller, createNoticesService } from './noticesService';

/**
 * Airbnb notices: every property with Airbnb among its channels is checked in the background (not while Su is
 * known to be unreachable). Notices are kept per provider, so another provider in use is another badge count.
 */
export function createNoticesFeature(
  context: FeatureContext & { offline: () => boolean; notifier?: Partial<NoticeNotifier> | undefined },
) {
  const { connection, events } = context;
  const notifier = context.notifier?.newNotice ? (context.notifier as NoticeNotifier) : undefined;
  const notices = createNoticesService({
    database: context.database,
    provider: () => connection.active(),
    now: context.now,
    fetch: (hotelId) => connection.provider().notifications.fetch({ hotelid: hotelId }),
    properties: () => context.properties().flatMap((p) => (p.channels.includes('244') ? [p.hotelId] : [])),
    offline: context.offline,
    onChanged: noticesNews({ events, notifier }),
  });
  const poller = createNoticesPoller(notices);
  // After the change itself has reached every listener.
  events.on('connection.changed', () =>
    queueMicrotask(() => events.emit('notices.changed', { unseen: notices.unseen(), added: [] })),
  );
  return {
    notices,
    handlers: noticesHandlers({ notices: () => notices }),
    start: () => poller.start(),
    stop: () => poller.stop(),
  };
}
