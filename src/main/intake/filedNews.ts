import type { CoreBus } from '../bus';
import type { IngestResult } from './ingest';

/**
 * The news of deliveries filed: those acknowledged together (one group commit) are announced together on the bus
 * (`deliveriesFiled`), in the next turn of the event loop, after Su was told. A delivery already filed (a repost)
 * is no news; one put in quarantine changes the listener's status (its count), told once per group.
 */
export function createFiledNews(deps: { bus: CoreBus; quarantined: () => void }) {
  let pending: IngestResult[] = [];
  let telling: NodeJS.Immediate | null = null;
  let stopped = false;
  const tell = () => {
    telling = null;
    const results = pending;
    pending = [];
    deps.bus.emit('deliveriesFiled', results);
    if (results.some((r) => r.outcome === 'quarantined')) deps.quarantined();
  };
  return {
    /** A delivery was filed and acknowledged; told with the others of its group. */
    afterFiled(result: IngestResult): void {
      if (stopped || (result.outcome !== 'stored' && result.outcome !== 'quarantined')) return;
      pending.push(result);
      telling ??= setImmediate(tell);
    },
    /** The core is closing: news still waiting is dropped (the data file it would be read from closes next). */
    stop(): void {
      stopped = true;
      if (telling) clearImmediate(telling);
      telling = null;
      pending = [];
    },
  };
}
