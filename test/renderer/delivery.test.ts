import { describe, expect, it } from 'vitest';
import type { Delivery } from '@shared/inbox';
import { blockedFlags, deliveryLabel } from '@renderer/features/inbox/replies/delivery';

const delivery = (state: Delivery['state'], outcomeUnknown?: boolean): Delivery => ({
  outboxId: 1,
  state,
  error: outcomeUnknown === undefined ? null : { code: 'network', message: 'x', outcomeUnknown },
});

describe('where a reply is', () => {
  it('reads in one line, by state', () => {
    expect(deliveryLabel(delivery('queued')).text).toBe('Queued — sends when Su is reachable');
    expect(deliveryLabel(delivery('queued'), false, true)).toMatchObject({
      text: 'Queued — sending is paused',
      tone: 'warn',
    });
    expect(deliveryLabel(delivery('queued'), true, true)).toMatchObject({
      text: 'Waiting — the reply before it was not sent',
      tone: 'warn',
    });
    expect(deliveryLabel(delivery('sending')).text).toBe('Sending…');
    expect(deliveryLabel(delivery('sent'))).toMatchObject({ text: 'Sent', tone: 'quiet' });
    expect(deliveryLabel(delivery('discarded')).text).toBe('Discarded — not sent');
    expect(deliveryLabel(delivery('failed', false))).toMatchObject({ text: 'Not sent', tone: 'danger' });
    expect(deliveryLabel(delivery('failed', true))).toMatchObject({ text: 'May not have arrived', tone: 'warn' });
  });

  it('is blocked when queued behind a reply of the same conversation that did not go out', () => {
    expect(
      blockedFlags([
        delivery('sent'),
        delivery('queued'),
        delivery('failed'),
        null,
        delivery('queued'),
        delivery('sending'),
      ]),
    ).toEqual([false, false, false, false, true, false]);
    expect(blockedFlags([])).toEqual([]);
  });
});
