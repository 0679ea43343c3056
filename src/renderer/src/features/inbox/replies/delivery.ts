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

/**
 * Su's refusals that the same request will meet again, whatever the owner retries or edits: the property is
 * inactive (947), Su does not know its hotel code (558), or it is not mapped to the channel (573). For these the
 * owner is told what to do instead of being offered a Retry that fails again.
 */
export function deadEnd(error: Delivery['error'], channelName: string): { what: string; instead: string[] } | null {
  const extranet = `Reply from the ${channelName} extranet (or app) instead, then discard this copy here.`;
  switch (error?.providerCode) {
    case '947':
      return {
        what: 'Su refuses replies for this property because it is inactive.',
        instead: [
          extranet,
          'Or reactivate the property with Su (your Su account manager or support can do it), then write the reply here again.',
        ],
      };
    case '558':
      return {
        what: 'Su does not know this property’s hotel code, so it cannot pass the reply on.',
        instead: [extranet, 'Check with Su that the property still exists under this code in your Su account.'],
      };
    case '573':
      return {
        what: `This property is not mapped to ${channelName} at Su, so the reply has nowhere to go.`,
        instead: [extranet, `Or map the property to ${channelName} in Su, then write the reply here again.`],
      };
    default:
      return null;
  }
}
