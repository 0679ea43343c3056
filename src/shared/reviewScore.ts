// A review's overall score on one scale, for the list and its score filter: Booking.com and Expedia score 0–10,
// Airbnb rates 1–5 stars (counted double). Read defensively: a score may come as text, ratings in four shapes.

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const mean = (values: number[]) =>
  values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 : null;

/** Category → value from whatever shape Airbnb's ratings came in (list, JSON text, object); {} otherwise. */
function ratingEntries(raw: unknown): [string, number | null][] {
  if (typeof raw === 'string') {
    try {
      return ratingEntries(JSON.parse(raw));
    } catch {
      return [];
    }
  }
  if (Array.isArray(raw))
    return raw.map((item, i): [string, number | null] => {
      if (item && typeof item === 'object') {
        const o = item as Record<string, unknown>;
        return [String(o.category ?? o.name ?? o.type ?? i).toLowerCase(), num(o.rating ?? o.score ?? o.value)];
      }
      return [String(i), num(item)];
    });
  if (raw && typeof raw === 'object')
    return Object.entries(raw).map(([k, v]): [string, number | null] => [k.toLowerCase(), num(v)]);
  return [];
}

/** The "overall" entry when there is one, else the mean of the others; null without any number. */
function overallOf(entries: [string, number | null][]): number | null {
  const overall = entries.find(([k]) => k === 'overall' || k === 'overall_rating')?.[1];
  if (overall !== undefined && overall !== null) return overall;
  return mean(entries.map(([, v]) => v).filter((v): v is number => v !== null));
}

/** A current review's scores (0–10): the overall score, else the mean. */
export function currentOverall(scores: unknown): number | null {
  if (!scores || typeof scores !== 'object' || Array.isArray(scores)) return null;
  const v = overallOf(Object.entries(scores).map(([k, s]): [string, number | null] => [k.toLowerCase(), num(s)]));
  return v === null ? null : Math.min(10, Math.max(0, v));
}

/** An Airbnb review's ratings (1–5 stars) on the 0–10 scale. */
export function legacyOverall(ratings: unknown): number | null {
  const stars = overallOf(ratingEntries(ratings));
  return stars === null ? null : Math.min(10, Math.max(0, stars * 2));
}
