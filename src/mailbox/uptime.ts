import { errorText } from '../shared/result';
import type { MailboxStore } from './store';

/** How often the running mailbox notes that it is still up: a kill -9 or a power cut leaves a gap at most this long. */
export const HEARTBEAT_MS = 30_000;

export interface UpPeriod {
  from: number;
  /** null for the period running now. */
  to: number | null;
}

/**
 * The mailbox's up periods, so the desktop can show when it was down (Su reposts only 3 times). A period starts when
 * the mailbox listens and ends when it stops; a heartbeat moves its end forward while it runs, so one that was never
 * ended (killed) ends at its last heartbeat.
 */
export function createUptime(store: MailboxStore, heartbeatMs = HEARTBEAT_MS) {
  const { db } = store;
  let current: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  const beat = () => {
    if (current === null) return;
    try {
      db.prepare('UPDATE uptime SET beat_at = ? WHERE id = ?').run(store.now(), current);
    } catch (error) {
      // A full disk: the period's end will be the last beat written; deliveries answer 503 on their own.
      console.error(`mailbox: the uptime could not be recorded: ${errorText(error)}`);
    }
  };
  return {
    up(): number {
      const at = store.now();
      store.transaction(() => {
        // A run that never said it stopped ended at its last heartbeat.
        db.prepare('UPDATE uptime SET up_to = beat_at WHERE up_to IS NULL').run();
        current = Number(db.prepare('INSERT INTO uptime (up_from, beat_at) VALUES (?, ?)').run(at, at).lastInsertRowid);
      });
      timer = setInterval(beat, heartbeatMs);
      timer.unref();
      return at;
    },
    down(): void {
      if (timer) clearInterval(timer);
      timer = null;
      if (current === null) return;
      try {
        db.prepare('UPDATE uptime SET up_to = ?, beat_at = ? WHERE id = ?').run(store.now(), store.now(), current);
      } catch (error) {
        console.error(`mailbox: the stop could not be recorded: ${errorText(error)}`);
      }
      current = null;
    },
    /** The last `count` periods, oldest first; the running one open. */
    periods(count = 20): UpPeriod[] {
      const rows = db
        .prepare('SELECT id, up_from AS "from", up_to AS "to", beat_at AS beat FROM uptime ORDER BY id DESC LIMIT ?')
        .all(count) as { id: number; from: number; to: number | null; beat: number }[];
      return rows.reverse().map((r) => ({ from: r.from, to: r.id === current ? null : (r.to ?? r.beat) }));
    },
  };
}
export type Uptime = ReturnType<typeof createUptime>;
