// Calendar dates as the app and Su write them: YYYY-MM-DD strings, compared as text.

/** Adds `days` to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today's date on this computer, YYYY-MM-DD (the owner's calendar day). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Every date from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Monday = 0 … Sunday = 6, of a plain date (YYYY-MM-DD), never shifted by a time zone. */
export const weekdayIndex = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The days from `from` to `to` (both included) that fall on one of `weekdays` (Monday = 0); every day without. */
export function daysOn(from: string, to: string, weekdays?: readonly number[]): string[] {
  const days = daysOf(from, to);
  if (!weekdays) return days;
  const on = new Set(weekdays);
  return days.filter((day) => on.has(weekdayIndex(day)));
}
