import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { Notice } from '../../shared/notices';
import type { NoticesService } from './noticesService';

/** What the host does with a new notice: a native notification (the tray in Electron). */
export interface NoticeNotifier {
  newNotice(notice: Notice): void;
}

/** The `notices.*` methods, and the news of a check: the badge's count, and new notices for a notification. */
export function noticesHandlers(deps: { notices: () => NoticesService }) {
  const handlers: HandlerSlice<'notices'> = {
    'notices.list': (args) => deps.notices().list(args.hotelId),
    'notices.markSeen': (args) => deps.notices().markSeen(args),
    'notices.checkNow': (args) => deps.notices().checkNow(args.hotelId),
    'notices.open': (args) => deps.notices().open(args.id),
  };
  return handlers;
}

/**
 * After a check: the renderer hears the unseen count and what is new; the host notifies natively of each new
 * notice, except on a property's first check (what was already there is not news: it only raises the badge).
 */
export function noticesNews(deps: { events: EventBus; notifier?: NoticeNotifier | undefined }) {
  return (change: { added: Notice[]; unseen: number; firstCheck: boolean }) => {
    deps.events.emit('notices.changed', { unseen: change.unseen, added: change.firstCheck ? [] : change.added });
    if (change.firstCheck) return;
    for (const notice of change.added.slice(0, 3)) deps.notifier?.newNotice(notice);
  };
}
