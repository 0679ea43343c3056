// What a conversation's row in the search index (thread_search, threadSearchMigration.ts) holds, and under which
// key. One row per conversation, so that a search reads the conversations it finds straight from the index, newest
// first, and stops after the page it shows (issue 27: a word in most of 100,000 conversations).
//
// - The words of its messages: each distinct whitespace-separated piece once (trimmed of what is not part of a word;
//   compared without case), found by the index as typed prefixes. Kept in `thread_words` as well, so that a new
//   message adds its new pieces to the row without reading the conversation's other messages again.
// - What it is about (guest name, booking number, confirmation code, listing, property, hotel id): every word of it
//   with each of its suffixes, so that a typed prefix of a suffix finds any part of it (`40123` inside a booking
//   number, `rbour` inside Harbour), as the trigram index before it did.

/** Characters the index's tokenizer (unicode61) keeps inside a word: letters, digits, marks, private use. */
const WORD_CHAR = '\\p{L}\\p{N}\\p{M}\\p{Co}';
const EDGES = new RegExp(`^[^${WORD_CHAR}]+|[^${WORD_CHAR}]+$`, 'gu');
const WORDS = new RegExp(`[${WORD_CHAR}]+`, 'gu');
/** A word the index can find holds a letter or a digit (marks alone are not one). */
const FINDABLE = /[\p{L}\p{N}]/u;

/**
 * Adds the distinct pieces of `text` to `into` (lower-cased piece → piece as written). A piece is kept as written:
 * the index folds case and accents itself, the same way for the text and for what is typed.
 */
export function addPieces(text: string, into: Map<string, string>): void {
  for (const raw of text.split(/\s+/)) {
    const piece = raw.replace(EDGES, '');
    if (!piece || !FINDABLE.test(piece)) continue;
    const key = piece.toLowerCase();
    if (!into.has(key)) into.set(key, piece);
  }
}

/** The pieces stored for a conversation (`thread_words.words`: pieces separated by single spaces), as a map. */
export function piecesOf(words: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const piece of words ? words.split(' ') : []) map.set(piece.toLowerCase(), piece);
  return map;
}

/** Every word of the facts with each of its suffixes, separated by spaces (each one once). */
export function factSuffixes(facts: string | null): string {
  const out = new Set<string>();
  for (const word of facts?.match(WORDS) ?? []) {
    const chars = [...word];
    for (let i = 0; i < chars.length; i++) {
      const suffix = chars.slice(i).join('');
      if (FINDABLE.test(suffix)) out.add(suffix);
    }
  }
  return [...out].join(' ');
}

/** The words of what the owner typed, as the index splits them (`check-in` → `check`, `in`). */
export const typedWords = (word: string): string[] => (word.match(WORDS) ?? []).filter((w) => FINDABLE.test(w));

/** Bits of a row's key that hold the conversation's id: ids below 2^22 (4,194,304 conversations). */
export const ID_BITS = 22;
export const ID_MASK = 2 ** ID_BITS - 1;
/** Milliseconds are counted from here, within ±2^41 (1950 to 2089). */
const EPOCH = Date.UTC(2020, 0, 1);
const SPAN = 2n ** 41n - 1n;

/**
 * A conversation's row key: its newest message's time (ms) in the high bits, its id in the low 22, so the index's
 * own order is the inbox's (`last_message_at DESC, id DESC`) and a search reads its page in that order. A
 * conversation with no message yet sorts last, as SQLite sorts a NULL.
 */
export function rowKey(lastMessageAt: number | null, id: number): bigint {
  if (!Number.isSafeInteger(id) || id < 0 || id > ID_MASK)
    throw new Error(`Conversation id ${id} is beyond what the search index can hold (2^${ID_BITS}).`);
  let at = lastMessageAt === null ? -SPAN : BigInt(Math.trunc(lastMessageAt - EPOCH));
  if (at < -SPAN) at = -SPAN;
  if (at > SPAN) at = SPAN;
  return (at << BigInt(ID_BITS)) | BigInt(id);
}
