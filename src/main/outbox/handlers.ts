import type { OutboxStatus } from '../../shared/outbox';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { Outbox } from './outbox';
import type { OutboxKinds } from './types';

/**
 * The `outbox.*` methods, the outbox's status as the inbox's banner shows it, and `changed()` to tell the renderer.
 * @param kinds every kind: those with a `place` are the banner's (replies; rates pushes are followed on their screen).
 */
export function outboxHandlers(deps: {
  outbox: Pick<
    Outbox,
    'paused' | 'pending' | 'counts' | 'unreachableUntil' | 'retry' | 'discard' | 'markSent' | 'resume'
  >;
  events: EventBus;
  kinds: OutboxKinds;
}) {
  const { outbox, events, kinds } = deps;
  const placed = (kind: string) => Object.hasOwn(kinds, kind) && kinds[kind]!.place !== undefined;

  /** The conversation or review of the oldest failed reply, so the banner can take the owner there. */
  const firstFailed = (): OutboxStatus['firstFailed'] => {
    const item = outbox.pending().find((i) => i.state === 'failed' && placed(i.kind));
    return item ? (kinds[item.kind]!.place?.(item) ?? null) : null;
  };

  const status = (): OutboxStatus => {
    const paused = outbox.paused();
    return {
      ...outbox.counts(placed),
      paused: paused ? { message: paused.error.message, since: paused.since } : null,
      unreachableUntil: outbox.unreachableUntil(),
      firstFailed: firstFailed(),
    };
  };

  const changed = (): OutboxStatus => {
    const current = status();
    events.emit('outbox.changed', current);
    return current;
  };

  /** Applies an owner's decision, then answers with (and announces) the new status. */
  const decide = (decision: () => unknown): OutboxStatus => {
    decision();
    return changed();
  };

  const handlers: HandlerSlice<'outbox'> = {
    'outbox.status': () => status(),
    'outbox.retry': (args) => decide(() => outbox.retry(args.id)),
    'outbox.discard': (args) => decide(() => outbox.discard(args.id)),
    'outbox.markSent': (args) => decide(() => outbox.markSent(args.id)),
    'outbox.resume': () => decide(() => outbox.resume()),
  };

  return {
    handlers,
    changed,
    /** New credentials may be what a paused queue was waiting for. */
    credentialsSaved(): void {
      if (outbox.paused()) decide(() => outbox.resume());
    },
  };
}
