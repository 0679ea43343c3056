import type { PaymentStatus } from '../../shared/payments';

// How a link's status is followed: the host's words read as a status, and when to ask again.

/** The host's status word as a ledger status. Its docs name only Success; the rest is read by meaning. */
export function statusFromHost(word: string, completed: boolean): PaymentStatus {
  if (completed) return 'paid';
  const w = word.trim().toLowerCase();
  if (/^(|pending|requested|created|initiated|processing|in[ _-]?progress|open|new|waiting|unpaid)$/.test(w))
    return 'requested';
  if (/fail|declin|cancel|expir|reject|error|void|refus/.test(w)) return 'failed';
  return 'unknown';
}

/** Final statuses are not asked again. */
export const isFinal = (status: PaymentStatus) => status === 'paid' || status === 'failed';

export const CHECK_TIMING = {
  /** After the link is made: 10 s, then doubling, at most every 15 minutes. */
  firstMs: 10_000,
  longestMs: 15 * 60_000,
  /** A link nobody paid in 30 days is no longer asked about by itself (Check now still works). */
  followForMs: 30 * 24 * 3_600_000,
};

/** When to ask next after `attempts` answers that were not final; null once the link is too old to follow. */
export function nextCheckAt(attempts: number, at: number, requestedAt: number | null): number | null {
  if (requestedAt !== null && at - requestedAt > CHECK_TIMING.followForMs) return null;
  const delay = Math.min(CHECK_TIMING.firstMs * 2 ** Math.min(attempts, 20), CHECK_TIMING.longestMs);
  return at + delay;
}
