import { errorText } from '../../shared/result';
import type { Database } from './database';

/** A span during which a component (the listener, the tunnel) was not running. */
export interface DownSpan {
  component: string;
  from: number;
  /** null while it is still down. */
  to: number | null;
  /** What the log says about it ('stopped', 'connection lost', 'refusing failed logins (flood)'…), when known. */
  reason: string | null;
}

const HEARTBEAT_MS = 30_000;

/**
 * Records when a component goes up and down, with a heartbeat, so that after a crash or a closed laptop the
 * owner sees from when to when deliveries could not arrive (the provider reposts only 3 times, then drops them).
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
      return downSpansOf(database, component);
    },
  };
}
export type UptimeLog = ReturnType<typeof createUptimeLog>;

/** Every span a component was down, oldest first (the last one open while it is down), with the reason logged. */
export function downSpansOf(database: Database, component: string): DownSpan[] {
  const rows = database.db
    .prepare('SELECT state, at, detail FROM uptime_log WHERE component = ? ORDER BY id')
    .all(component) as { state: 'up' | 'down'; at: number; detail: string | null }[];
  const spans: DownSpan[] = [];
  for (const row of rows) {
    if (row.state === 'down') spans.push({ component, from: row.at, to: null, reason: row.detail });
    else if (spans.length && spans.at(-1)!.to === null) spans.at(-1)!.to = row.at;
  }
  return spans;
}

/**
 * Periods during which a component refused some requests on purpose (the listener refusing failed logins during a
 * flood), kept in the uptime log as downtime with what was refused. Deliveries with valid credentials were still
 * served; the period is shown so the owner knows someone was knocking. A period left open by a run that died is closed
 * at the next start.
 */
export function createRefusalLog(database: Database, component: string, now: () => number) {
  const { db } = database;
  const insert = (state: 'up' | 'down', detail: string) =>
    Number(
      db
        .prepare('INSERT INTO uptime_log (component, state, at, detail) VALUES (?, ?, ?, ?)')
        .run(component, state, now(), detail).lastInsertRowid,
    );
  // Never thrown into a request: a log that cannot be written (a full disk) must not turn a refusal into a 500.
  const safely = (what: () => void) => {
    try {
      what();
    } catch (error) {
      console.error(`the ${component} period could not be recorded: ${errorText(error)}`);
    }
  };
  let open: { id: number; detail: string } | null = null;
  safely(() => {
    const last = db
      .prepare('SELECT state FROM uptime_log WHERE component = ? ORDER BY id DESC LIMIT 1')
      .get(component) as { state: string } | undefined;
    if (last?.state === 'down') insert('up', 'ended with the run');
  });

  return {
    /** Starts a period (or renames the open one, e.g. when one address's refusals turn into a flood). */
    begin(detail: string): void {
      safely(() => {
        if (open === null) open = { id: insert('down', detail), detail };
        else if (open.detail !== detail) {
          db.prepare('UPDATE uptime_log SET detail = ? WHERE id = ?').run(detail, open.id);
          open = { ...open, detail };
        }
      });
    },
    end(): void {
      if (open === null) return;
      open = null;
      safely(() => insert('up', 'refusals ended'));
    },
    active: () => open !== null,
  };
}
export type RefusalLog = ReturnType<typeof createRefusalLog>;
