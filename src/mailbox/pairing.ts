import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  normalizePairingCode,
  PAIRING_ALPHABET,
  type PairAnswer,
  type PairingError,
  type PairRequest,
} from '../receiving/mailboxProtocol';
import { hashPairingCode, type MailboxStore } from './store';

/** How long a pairing code is valid. */
export const PAIRING_VALID_MS = 15 * 60 * 1000;
/** Wrong tries (in total, from anywhere) after which the code is void. */
export const PAIRING_MAX_FAILURES = 5;

/**
 * A new one-time pairing code (`XXXX-XXXX-XXXX`, 60 random bits from an alphabet without look-alikes), valid 15
 * minutes. It replaces any code waiting (one at a time); only its hash is kept.
 */
export function newPairingCode(store: MailboxStore): { code: string; expiresAt: number } {
  const chars = Array.from({ length: 12 }, () => PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)]).join('');
  const code = `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  const expiresAt = store.now() + PAIRING_VALID_MS;
  store.transaction(() => {
    store.db.prepare('DELETE FROM pairing').run();
    store.db
      .prepare('INSERT INTO pairing (id, code_hash, expires_at, failures) VALUES (1, ?, ?, 0)')
      .run(hashPairingCode(code), expiresAt);
  });
  return { code, expiresAt };
}

export type PairOutcome = { status: 200; answer: PairAnswer } | { status: 401 | 403 | 410; answer: PairingError };

/**
 * Pairs a device with the code waiting. A right code is used up at once (one device per code); a wrong one counts
 * towards the five that void it; an expired one, or none waiting, is refused. All in one transaction, so two tries
 * at once cannot both use the code or both escape the count.
 */
export function pairDevice(store: MailboxStore, request: PairRequest): PairOutcome {
  const typed = normalizePairingCode(request.code);
  return store.transaction((): PairOutcome => {
    const row = store.pairingRow();
    if (!row || row.expiresAt <= store.now()) {
      return {
        status: 410,
        answer: {
          error: 'pairing_code_expired',
          message:
            'This pairing code is no longer valid (a code lasts 15 minutes and pairs one computer). Make a new one on the mailbox with: npm run mailbox -- pair',
        },
      };
    }
    if (row.failures >= PAIRING_MAX_FAILURES) return locked();
    const expected = Buffer.from(row.codeHash, 'hex');
    const given = Buffer.from(hashPairingCode(typed ?? `not a code: ${request.code}`), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const failures = row.failures + 1;
      store.db.prepare('UPDATE pairing SET failures = ?').run(failures);
      const triesLeft = Math.max(0, PAIRING_MAX_FAILURES - failures);
      return {
        status: 401,
        answer: {
          error: 'pairing_code_wrong',
          triesLeft,
          message:
            triesLeft > 0
              ? `This is not the pairing code the mailbox printed; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
              : 'This is not the pairing code the mailbox printed, and that was the last try: the code no longer works. Make a new one with: npm run mailbox -- pair',
        },
      };
    }
    store.db.prepare('DELETE FROM pairing').run();
    const { id, token } = store.addDevice(request);
    return { status: 200, answer: { deviceId: id, token, mailboxId: store.mailboxId } };
  });
}

const locked = (): PairOutcome => ({
  status: 403,
  answer: {
    error: 'pairing_locked',
    message: `The pairing code was typed wrong ${PAIRING_MAX_FAILURES} times and no longer works. Make a new one with: npm run mailbox -- pair`,
  },
});
