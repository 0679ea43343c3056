import type { Delivery } from '@shared/inbox';

/** How a reply's delivery reads in one short line beside it. */
export interface DeliveryLabel {
  icon: string;
  text: string;
  /** quiet: settled or in progress; warn: waiting or unsure; danger: refused. */
  tone: 'quiet' | 'warn' | 'danger';
}

/**
 * The line under an outgoing reply. `blocked`: an earlier reply of the same conversation did not go out, and
 * replies leave in order, so this one waits for the owner's decision about that one, not for Su. `paused`: the
 * whole queue waits for the owner to fix the credentials.
 */
export function deliveryLabel(delivery: Delivery, blocked = false, paused = false): DeliveryLabel {
  switch (delivery.state) {
    case 'queued':
      if (blocked)
        return { icon: 'pi pi-pause-circle', text: 'Waiting — the reply before it was not sent', tone: 'warn' };
      if (paused) return { icon: 'pi pi-pause-circle', text: 'Queued — sending is paused', tone: 'warn' };
      return { icon: 'pi pi-clock', text: 'Queued — sends when Su is reachable', tone: 'quiet' };
    case 'sending':
      return { icon: 'pi pi-spin pi-spinner', text: 'Sending…', tone: 'quiet' };
    case 'sent':
      return { icon: 'pi pi-check', text: 'Sent', tone: 'quiet' };
    case 'discarded':
      return { icon: 'pi pi-ban', text: 'Discarded — not sent', tone: 'quiet' };
    case 'failed':
      return delivery.error?.outcomeUnknown
        ? { icon: 'pi pi-question-circle', text: 'May not have arrived', tone: 'warn' }
        : { icon: 'pi pi-exclamation-circle', text: 'Not sent', tone: 'danger' };
  }
}

/** Each reply's `blocked` flag for a list of replies in sending order (see {@link deliveryLabel}). */
export function blockedFlags(deliveries: (Delivery | null)[]): boolean[] {
  let stopped = false;
  return deliveries.map((d) => {
    const blocked = stopped && d?.state === 'queued';
    if (d?.state === 'failed') stopped = true;
    return blocked;
  });
}
