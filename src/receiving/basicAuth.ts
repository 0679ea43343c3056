import { createHash, timingSafeEqual } from 'node:crypto';

/** The partner credentials the provider sends with every delivery (the owner chooses them). */
export interface DeliveryCredentials {
  username: string;
  password: string;
  /**
   * Where deliveries carrying these credentials come from, handed to the store with each (the desktop: 'demo' for the
   * built-in demo provider's own credentials, whose deliveries are marked as the demo's).
   */
  source?: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The accepted credentials' digests, worked out once per value (they change only when the owner saves new ones). */
const known = new Map<string, Buffer>();
const expectedDigest = (value: string): Buffer => {
  let d = known.get(value);
  if (!d) {
    if (known.size >= 16) known.clear();
    d = digest(value);
    known.set(value, d);
  }
  return d;
};

/**
 * The user name and password of an `Authorization: Basic …` header, or null when it is not one (for a caller that
 * compares them itself, with hashes kept at rest: compare timing-safe).
 */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : null;
}

/**
 * Checks an `Authorization: Basic …` header against every set of credentials accepted right now (the owner's, and
 * the demo provider's own while it runs); answers the set that matched. SECURITY: user names and passwords are compared
 * as SHA-256 digests with timingSafeEqual (equal lengths, constant time), and every comparison always runs.
 */
export function basicAuthMatches(
  header: string | undefined,
  accepted: readonly DeliveryCredentials[],
): DeliveryCredentials | null {
  const given = basicCredentials(header);
  const user = digest(given?.username ?? '');
  const password = digest(given?.password ?? '');
  let found: DeliveryCredentials | null = null;
  for (const expected of accepted) {
    const userOk = timingSafeEqual(user, expectedDigest(expected.username));
    const passwordOk = timingSafeEqual(password, expectedDigest(expected.password));
    if (userOk && passwordOk && !found) found = expected;
  }
  return given ? found : null;
}
