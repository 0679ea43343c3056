import type { MailboxStatus } from '../../shared/mailbox';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { MailboxService } from './mailboxService';

/** The mailbox slice: pairing, unpairing (this computer, or another device), and its status; every change is announced (`mailbox.changed`). */
export function mailboxHandlers(deps: { mailbox: MailboxService; events: EventBus }) {
  const { mailbox, events } = deps;
  let last: string | null = null;
  /** Tells the window when the status changed (once per change). */
  const changed = (): MailboxStatus => {
    const status = mailbox.status();
    const key = JSON.stringify(status);
    if (key !== last) events.emit('mailbox.changed', status);
    last = key;
    return status;
  };
  const handlers = {
    'mailbox.status': () => mailbox.status(),
    'mailbox.pair': async ({ url, code }) => {
      try {
        await mailbox.pair(url, code);
      } finally {
        changed();
      }
      return mailbox.status();
    },
    'mailbox.unpair': async () => {
      await mailbox.unpair();
      return changed();
    },
    'mailbox.unpairDevice': async ({ deviceId }) => {
      await mailbox.unpairDevice(deviceId);
      return changed();
    },
  } satisfies HandlerSlice<'mailbox'>;
  return { handlers, changed };
}
