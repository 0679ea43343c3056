// What an outbox item belongs to. Items of one entity go out strictly one after another; the key is also how a
// change of an item is routed back to its feature (a thread, a review, a property's rates). Built and read here
// only.

/** The thing an outbox item belongs to. */
export type OutboxEntity =
  | { kind: 'thread'; threadId: number }
  | { kind: 'review'; reviewId: number }
  | { kind: 'rates'; hotelId: string }
  | { kind: 'property'; hotelId: string; scope: string }
  | { kind: 'photos'; hotelId: string };

export const entityKey = {
  /** A conversation: its replies go out in the order they were written. */
  thread: (threadId: number) => `thread:${threadId}`,
  /** A review: its replies go out in order. */
  review: (reviewId: number) => `review:${reviewId}`,
  /** A property's rates: one push at a time, in order. */
  rates: (hotelId: string) => `rates:${hotelId}`,
  /** A property's details, or the facilities of the property or one room (`scope`): one push at a time, in order. */
  property: (hotelId: string, scope: string) => `property:${hotelId}:${scope}`,
  /** A property's photos: creates before the associations that name them, in order. */
  photos: (hotelId: string) => `photos:${hotelId}`,
};

/** The entity of a key built by {@link entityKey}; null for a key of any other shape. */
export function parseEntityKey(key: string): OutboxEntity | null {
  const colon = key.indexOf(':');
  if (colon < 0) return null;
  const kind = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  if ((kind === 'rates' || kind === 'photos') && rest) return { kind, hotelId: rest };
  if (kind === 'property') {
    const at = rest.indexOf(':');
    return at > 0 && at < rest.length - 1 ? { kind, hotelId: rest.slice(0, at), scope: rest.slice(at + 1) } : null;
  }
  const id = Number(rest);
  if (!Number.isSafeInteger(id) || id <= 0 || String(id) !== rest) return null;
  if (kind === 'thread') return { kind, threadId: id };
  if (kind === 'review') return { kind, reviewId: id };
  return null;
}
