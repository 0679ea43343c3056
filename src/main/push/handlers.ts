import type { PushStatus } from '../../shared/push';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { IngestResult } from './ingest';
import type { PushService } from './pushService';

/** The `push.*` methods, and what tells the renderer the listener's state changed. */
export function pushHandlers(deps: { push: PushService; events: EventBus }) {
  const { push, events } = deps;
  const changed = (status: PushStatus = push.status()): PushStatus => {
    events.emit('push.changed', status);
    return status;
  };
  const handlers: HandlerSlice<'push'> = {
    'push.status': () => push.status(),
    'push.save': async (args) => changed(await push.save(args)),
    'push.quarantine': () => push.quarantine(),
    'push.dismissQuarantined': (args) => {
      push.dismissQuarantined(args.id);
      return changed();
    },
    'push.restoreBackup': (args) => changed(push.restoreBackup(args.file)),
    'push.cancelRestore': () => changed(push.cancelRestore()),
  };
  // A damaged file found, writes failing or working again: the screen says so at once, not at the next push.
  push.onStoreChange(() => changed());
  /** Pushes filed together (one group commit) are told once: the status is read once for all of them. */
  let telling: NodeJS.Immediate | null = null;
  let stopped = false;
  return {
    handlers,
    changed,
    /** A push was filed: when it went to quarantine, the listener's status (its quarantine count) changed. */
    afterPush(result: IngestResult): void {
      if (result.outcome !== 'quarantined' || telling || stopped) return;
      telling = setImmediate(() => {
        telling = null;
        changed();
      });
    },
    /** The core is closing: news still waiting is dropped (the database it would read is about to close). */
    stop(): void {
      stopped = true;
      if (telling) clearImmediate(telling);
      telling = null;
    },
  };
}
