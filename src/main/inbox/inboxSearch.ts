import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { propertyNameSql } from './searchMigration';

// What the inbox's search looks in: the text of messages (message_text) and reviews (search_index), each word a
// prefix; and who and what a conversation or review is about (thread_facts, review_facts: any part of a guest name,
// booking number, confirmation code, listing or property name, hotel id). SQLite keeps them current
// (searchMigration.ts).

export { propertyNameSql };

/** At most this many words of a search count (each one costs a lookup). */
export const MAX_SEARCH_WORDS = 6;

/** The facts indexes find parts of this many characters or more; a shorter word is looked for in their texts. */
const TRIGRAM = 3;

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

/** A review WHERE part that keeps nothing: what the owner typed holds no word that could match. */
const NOTHING = { sql: '0', params: [] as SQLInputValue[] };

const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;

/** One word as an FTS5 prefix term, quotes escaped (never an FTS syntax error). */
export const ftsTerm = (word: string) => `${quoted(word)}*`;

/** One word as a LIKE pattern found anywhere, its wildcards escaped. */
export const likeTerm = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isShort = (word: string) => [...word].length < TRIGRAM;

/** What a word shorter than 3 characters is looked for with in the facts' texts (the trigram index cannot). */
function shortFacts(db: DatabaseSync, table: 'thread_facts' | 'review_facts', word: string) {
  // LIKE ignores the case of ASCII letters only: other words are compared here, lower-cased as JavaScript does.
  if (/^[\x20-\x7e]*$/.test(word))
    return { sql: `SELECT rowid FROM ${table} WHERE text LIKE ? ESCAPE '\\'`, param: likeTerm(word) };
  const needle = word.toLowerCase();
  const rows = db.prepare(`SELECT rowid AS id, text FROM ${table}`).all() as { id: number; text: string | null }[];
  const ids = rows.filter((r) => (r.text ?? '').toLowerCase().includes(needle)).map((r) => r.id);
  return { sql: 'SELECT value FROM json_each(?)', param: JSON.stringify(ids) };
}

/** Per word, SQL selecting the ids it finds in one text index (`text`) or in one facts index (`facts`). */
function perWord(
  db: DatabaseSync,
  text: string,
  indexes: { text: string; facts: 'thread_facts' | 'review_facts' },
): { sql: string; params: SQLInputValue[] }[] {
  return searchWords(text).map((word) => {
    const facts = isShort(word)
      ? shortFacts(db, indexes.facts, word)
      : { sql: `SELECT rowid FROM ${indexes.facts} WHERE ${indexes.facts} MATCH ?`, param: quoted(word) };
    return { sql: `${indexes.text} UNION ALL ${facts.sql}`, params: [ftsTerm(word), facts.param] };
  });
}

/**
 * The WHERE part keeping the threads a search finds: every word in one of the thread's messages (each word a
 * prefix) or in what the thread is about (any part of it). SQLite does all of it, one lookup per word in each
 * index, and no matching row crosses into JavaScript. For the page (`sql`), the id is written `+t.id` so that SQLite
 * walks the threads newest first and checks each against the words' results (the page is then found without sorting
 * every match); for the count (`countSql`, same params), plain `t.id`, so that SQLite looks up only the threads the
 * words found instead of checking every thread (a rare word among 100,000 conversations: 4.8 → 1.4 ms).
 */
export function threadSearch(
  db: DatabaseSync,
  text: string,
): { sql: string; countSql: string; params: SQLInputValue[] } | null {
  if (!text.trim()) return null;
  const words = perWord(db, text, {
    text: 'SELECT rowid >> 32 FROM message_text WHERE message_text MATCH ?',
    facts: 'thread_facts',
  });
  if (!words.length) return { ...NOTHING, countSql: NOTHING.sql };
  return {
    sql: words.map((w) => `+t.id IN (${w.sql})`).join(' AND '),
    countSql: words.map((w) => `t.id IN (${w.sql})`).join(' AND '),
    params: words.flatMap((w) => w.params),
  };
}

/** The same for reviews: each word in the review's text or in who and what it is about. */
export function reviewSearch(db: DatabaseSync, text: string): { sql: string; params: SQLInputValue[] } | null {
  if (!text.trim()) return null;
  const words = perWord(db, text, {
    text: "SELECT ref FROM search_index WHERE search_index MATCH ? AND source = 'review'",
    facts: 'review_facts',
  });
  if (!words.length) return NOTHING;
  return {
    sql: words.map((w) => `r.id IN (${w.sql})`).join(' AND '),
    params: words.flatMap((w) => w.params),
  };
}
