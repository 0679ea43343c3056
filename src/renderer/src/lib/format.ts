/** How every screen writes a moment and a count (in the owner's locale). */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "7 Jul 2021, 14:05". */
export const formatDateTime = (ms: number) => dateTime.format(ms);

/** "1 night", "3 nights", "1,200 threads": the count in the owner's locale and the word that fits it. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
