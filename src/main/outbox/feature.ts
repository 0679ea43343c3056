import { connectionFeature } from '../connection/feature';
import { defineFeature } from '../feature';
import { outboxHandlers } from './handlers';
import { OUTBOX_MIGRATIONS } from './migrations';
import { createOutbox } from './outbox';
import type { OutboxState } from './types';

const SETTLED: readonly OutboxState[] = ['sent', 'failed', 'discarded'];

/**
 * The durable outbox: everything sent to Su goes through it, each kind declared by the feature that owns it
 * (`outboxKinds`), which alone hears about its items. Provides the outbox (features queue with `outboxFor`).
 * Its status (the banner's counts, a pause, an outage) is announced on every change; `outboxSettled` on the bus
 * when an item reaches an end.
 */
export const outboxFeature = defineFeature({
  name: 'outbox',
  migrations: OUTBOX_MIGRATIONS,
  create(context) {
    const { connection } = context.use(connectionFeature);
    const outbox = createOutbox({
      db: context.database,
      now: context.now,
      random: Math.random,
      kinds: context.outboxKinds,
      // An item goes only to the provider in use when it was queued.
      provider: () => connection.active(),
      onChange: (item) => {
        feature.changed();
        if (SETTLED.includes(item.state)) context.bus.emit('outboxSettled', item);
      },
    });
    const feature = outboxHandlers({ outbox, events: context.events, kinds: context.outboxKinds });
    context.bus.on('connectionSaved', () => feature.credentialsSaved());
    return {
      handlers: feature.handlers,
      provides: outbox,
      /** Items a previous process left mid-send are marked failed (outcome unknown), then sending begins. */
      start: () => outbox.start(),
      /** Resolves once the sends in flight are recorded. */
      stop: () => outbox.stop(),
    };
  },
});
