import type { IntakeStatus } from '@shared/intake';

/** The uptime log's name for the periods the listener refused failed logins (src/main/intake/listener.ts). */
export const GUARD_COMPONENT = 'guard';

export interface RefusalPeriod {
  key: number;
  /** "Refused failed logins (flood)"; "Refusing …" while it goes on */
  what: string;
  /** "23 Nov 2026, 10:02 – 10:03", or "since 23 Nov 2026, 10:02 (still going on)" */
  when: string;
}

const dateTime = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { timeStyle: 'short' });
const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

/**
 * The periods during which the listener refused failed logins (a flood, or one address guessing), newest first
 * (the last three): shown apart from the listener's downtime, since deliveries with the right credentials still came in.
 */
export function refusalPeriods(downtime: IntakeStatus['downtime'], limit = 3): RefusalPeriod[] {
  return downtime
    .filter((d) => d.component === GUARD_COMPONENT)
    .slice(-limit)
    .reverse()
    .map((d) => {
      const reason = d.reason ?? 'refusing failed logins';
      // The log says what was going on ('refusing …'); a period that is over reads in the past tense.
      const said = d.to === null ? reason : reason.replace(/^refusing\b/, 'refused');
      return {
        key: d.from,
        what: said.charAt(0).toUpperCase() + said.slice(1),
        when:
          d.to === null
            ? `since ${dateTime(d.from)} (still going on)`
            : `${dateTime(d.from)} – ${sameDay(d.from, d.to) ? time(d.to) : dateTime(d.to)}`,
      };
    });
}
