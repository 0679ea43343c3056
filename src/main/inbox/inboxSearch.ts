import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { propertyNameSql } from './searchMigration';
import { typedWords } from './threadWords';

// What the inbox's search looks in. Conversations: one row each in thread_search, the words of their messages (each
// typed word a prefix) and what they are about (any part of a guest name, booking number, confirmation code,
// listing or property name, hotel id), in the list's own order (threadWords.ts, threadSearchMigration.ts). Reviews:
// their texts (search_index, each word a prefix) and what they are about (review_facts, trigrams: any part), kept
// current by SQLite (searchMigration.ts).

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

/** What a word shorter than 3 characters is looked for with in the reviews' facts (the trigram index cannot). */
function shortFacts(db: DatabaseSync, word: string) {
  // LIKE ignores the case of ASCII letters only: other words are compared here, lower-cased as JavaScript does.
  if (/^[\x20-\x7e]*$/.test(word))
    return { sql: `SELECT rowid FROM review_facts WHERE text LIKE ? ESCAPE '\\'`, param: likeTerm(word) };
  const needle = word.toLowerCase();
  const rows = db.prepare('SELECT rowid AS id, text FROM review_facts').all() as { id: number; text: string | null }[];
  const ids = rows.filter((r) => (r.text ?? '').toLowerCase().includes(needle)).map((r) => r.id);
  return { sql: 'SELECT value FROM json_each(?)', param: JSON.stringify(ids) };
}

/**
 * What the conversations' index (thread_search, one row per conversation: threadWords.ts) is asked for a search:
 * every typed word as a prefix, all of them (a word the index splits, `check-in`, is each of its parts). A word
 * matches the start of a word of the conversation's messages, or any part of what it is about (its facts are
 * indexed with their suffixes). Null when nothing was typed; `nothing` when what was typed can match nothing.
 */
export function threadSearch(text: string): { match: string } | { nothing: true } | null {
  if (!text.trim()) return null;
  const terms = searchWords(text).flatMap(typedWords);
  if (!terms.length) return { nothing: true };
  // Each word once, as typed: the index folds case and accents itself, the same way as for the texts.
  const distinct = new Map(terms.map((t) => [t.toLowerCase(), t]));
  return { match: [...distinct.values()].map(ftsTerm).join(' AND ') };
}

/** The same for reviews: each word in the review's text or in who and what it is about. */
export function reviewSearch(db: DatabaseSync, text: string): { sql: string; params: SQLInputValue[] } | null {
  if (!text.trim()) return null;
  // Per word: the reviews whose text has it (a prefix) or whose facts have it (any part).
  const words = searchWords(text).map((word) => {
    const facts = isShort(word)
      ? shortFacts(db, word)
      : { sql: 'SELECT rowid FROM review_facts WHERE review_facts MATCH ?', param: quoted(word) };
    return {
      sql: `SELECT ref FROM search_index WHERE search_index MATCH ? AND source = 'review' UNION ALL ${facts.sql}`,
      params: [ftsTerm(word), facts.param],
    };
  });
  if (!words.length) return NOTHING;
  return {
    sql: words.map((w) => `r.id IN (${w.sql})`).join(' AND '),
    params: words.flatMap((w) => w.params),
  };
}
