import type { SQLInputValue } from 'node:sqlite';

// What the inbox's search finds besides message and review text (the FTS5 index): who and what a conversation or
// review is about. Those facts change after a message is filed (the owner names a property under Rates, a later
// push brings the guest's name), so they are matched where they live, at query time, rather than copied into the
// index where they would go stale.

/** The property's name as set up under Rates (empty when none); `hotel` is the SQL naming the hotel id. */
export const propertyNameSql = (hotel: string) =>
  `(SELECT nullif(trim(json_extract(rs.setup, '$.name')), '') FROM rate_setups rs WHERE rs.hotel_id = ${hotel})`;

/** The words the owner typed, each one matched on its own (all must match). */
export const searchWords = (text: string): string[] => text.split(/\s+/).filter(Boolean).slice(0, 12);

/** One word as an FTS5 prefix term, quotes escaped (never an FTS syntax error). */
export const ftsTerm = (word: string) => `"${word.replace(/"/g, '""')}"*`;

/** One word as a LIKE pattern found anywhere, its wildcards escaped. */
export const likeTerm = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const facts = (parts: string[]) => parts.map((p) => `coalesce(${p}, '')`).join(` || ' ' || `);

/** Everything a thread row `t` is about, as one text. */
const THREAD_FACTS = facts([
  "json_extract(t.guest, '$.firstName')",
  't.booking_id',
  "json_extract(t.booking, '$.confirmationCode')",
  "json_extract(t.booking, '$.listingName')",
  't.hotel_id',
  propertyNameSql('t.hotel_id'),
]);

/** Everything a review row `r` is about, as one text. */
const REVIEW_FACTS = facts([
  "json_extract(r.detail, '$.guestFirstName')",
  "json_extract(r.detail, '$.revieweeName')",
  "json_extract(r.detail, '$.bookingId')",
  'r.provider_review_id',
  'r.hotel_id',
  propertyNameSql('r.hotel_id'),
]);

/** The WHERE part keeping threads where every word is in a message or in what the thread is about. */
export function threadSearch(text: string): { sql: string; params: SQLInputValue[] } | null {
  const words = searchWords(text);
  if (!words.length) return null;
  return {
    sql: words
      .map(
        () =>
          `(t.id IN (SELECT m.thread_id FROM search_index s JOIN messages m ON s.source = 'message' AND m.id = s.ref
                     WHERE search_index MATCH ?) OR (${THREAD_FACTS}) LIKE ? ESCAPE '\\')`,
      )
      .join(' AND '),
    params: words.flatMap((w) => [ftsTerm(w), likeTerm(w)]),
  };
}

/** The same for reviews: each word in the review's text or in who and what it is about. */
export function reviewSearch(text: string): { sql: string; params: SQLInputValue[] } | null {
  const words = searchWords(text);
  if (!words.length) return null;
  return {
    sql: words
      .map(
        () =>
          `(r.id IN (SELECT ref FROM search_index WHERE source = 'review' AND search_index MATCH ?)
            OR (${REVIEW_FACTS}) LIKE ? ESCAPE '\\')`,
      )
      .join(' AND '),
    params: words.flatMap((w) => [ftsTerm(w), likeTerm(w)]),
  };
}
