import type { DatabaseSync, SQLInputValue } from 'node:sqlite';

// What the inbox's search finds besides message and review text (the FTS5 index): who and what a conversation or
// review is about. Those facts change after a message is filed (the owner names a property under Rates, a later
// push brings the guest's name), so they are matched where they live, at query time, rather than copied into the
// index where they would go stale.

/** The property's name as set up under Rates (empty when none); `hotel` is the SQL naming the hotel id. */
export const propertyNameSql = (hotel: string) =>
  `(SELECT nullif(trim(json_extract(rs.setup, '$.name')), '') FROM rate_setups rs WHERE rs.hotel_id = ${hotel})`;

/** At most this many words of a search count (each one costs a lookup). */
export const MAX_SEARCH_WORDS = 6;

/**
 * The words the owner typed that a search looks for (all must match): a word with no letter or digit (`&`, `-`)
 * can match nothing in the index, so it is left out; so are 1-character words, unless there is nothing else; the
 * same word once, and no more than {@link MAX_SEARCH_WORDS}.
 */
export function searchWords(text: string): string[] {
  const usable = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const long = usable.filter((w) => [...w].length > 1);
  const seen = new Set<string>();
  return (long.length ? long : usable)
    .filter((w) => !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()))
    .slice(0, MAX_SEARCH_WORDS);
}

/** A WHERE part that keeps nothing: what the owner typed holds no word that could match. */
const NOTHING = { sql: '0', params: [] as SQLInputValue[] };

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

/**
 * The ids of the threads where every word is in one of its messages or in what the thread is about, found ONCE
 * (the list's count and its page are then read from them): one FTS lookup per word, and what each thread is about
 * read once per search (not once per word and thread), each word then looked for in it.
 */
export function matchingThreadIds(db: DatabaseSync, text: string): number[] {
  const words = searchWords(text);
  if (!words.length) return [];
  const inMessages = db.prepare(
    `SELECT m.thread_id AS id FROM search_index s JOIN messages m ON m.id = s.ref
     WHERE search_index MATCH ? AND s.source = 'message'`,
  );
  const perWord = words.map((w) => new Set((inMessages.all(ftsTerm(w)) as { id: number }[]).map((r) => r.id)));
  const needles = words.map((w) => w.toLowerCase());
  const found: number[] = [];
  for (const row of db.prepare(`SELECT t.id, ${THREAD_FACTS} AS about FROM threads t`).iterate() as Iterable<{
    id: number;
    about: string;
  }>) {
    const about = row.about.toLowerCase();
    if (needles.every((needle, i) => perWord[i]!.has(row.id) || about.includes(needle))) found.push(row.id);
  }
  return found;
}

/** The WHERE part keeping the threads a search finds: their ids, found once (see {@link matchingThreadIds}). */
export function threadSearch(db: DatabaseSync, text: string): { sql: string; params: SQLInputValue[] } | null {
  if (!text.trim()) return null;
  const ids = matchingThreadIds(db, text);
  if (!ids.length) return NOTHING;
  return { sql: 't.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(ids)] };
}

/** The same for reviews: each word in the review's text or in who and what it is about. */
export function reviewSearch(text: string): { sql: string; params: SQLInputValue[] } | null {
  if (!text.trim()) return null;
  const words = searchWords(text);
  if (!words.length) return NOTHING;
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
