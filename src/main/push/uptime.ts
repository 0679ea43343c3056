import type { Database } from '../db/database';

/** A span during which a component (the push listener, the tunnel) was not running. */
export interface DownSpan {
  component: string;
  from: number;
  /** null while it is still down. */
  to: number | null;
}

const HEARTBEAT_MS = 30_000;

/**
 * Records when a component goes up and down, with a heartbeat, so that after a crash or a closed laptop the
 * owner sees from when to when pushes could not arrive (the provider reposts only 3 times, then drops them).
 */
export function createUptimeLog(database: Database, component: string, now: () => number) {
  const { db } = database;
  let current: number | null = null;
  let timer: NodeJS.Timeout | null = null;

  const beat = () => {
    if (current !== null) db.prepare('UPDATE uptime_log SET detail = ? WHERE id = ?').run(String(now()), current);
  };

  return {
    up() {
      if (current !== null) return; // already up: nothing to record, no second heartbeat
      // A previous run that never said 'down' died: it was down from its last heartbeat.
      const last = db
        .prepare('SELECT state, at, detail FROM uptime_log WHERE component = ? ORDER BY id DESC LIMIT 1')
        .get(component) as { state: string; at: number; detail: string | null } | undefined;
      if (last?.state === 'up') {
        db.prepare(
          "INSERT INTO uptime_log (component, state, at, detail) VALUES (?, 'down', ?, 'not stopped cleanly')",
        ).run(component, Number(last.detail ?? last.at));
      }
      const row = db
        .prepare("INSERT INTO uptime_log (component, state, at, detail) VALUES (?, 'up', ?, ?)")
        .run(component, now(), String(now()));
      current = Number(row.lastInsertRowid);
      timer = setInterval(beat, HEARTBEAT_MS);
      timer.unref();
    },
    down(detail = 'stopped') {
      if (timer) clearInterval(timer);
      timer = null;
      if (current === null) return;
      beat();
      current = null;
      db.prepare("INSERT INTO uptime_log (component, state, at, detail) VALUES (?, 'down', ?, ?)").run(
        component,
        now(),
        detail,
      );
    },
    /** Every span the component was down, oldest first (the last one open while it is down). */
    downSpans(): DownSpan[] {
      const rows = db.prepare('SELECT state, at FROM uptime_log WHERE component = ? ORDER BY id').all(component) as {
        state: 'up' | 'down';
        at: number;
      }[];
      const spans: DownSpan[] = [];
      for (const row of rows) {
        if (row.state === 'down') spans.push({ component, from: row.at, to: null });
        else if (spans.length && spans.at(-1)!.to === null) spans.at(-1)!.to = row.at;
      }
      return spans;
    },
  };
}
export type UptimeLog = ReturnType<typeof createUptimeLog>;
