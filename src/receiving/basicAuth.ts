import { createHash, timingSafeEqual } from 'node:crypto';

/** The partner credentials the provider sends with every delivery (the owner chooses them). */
export interface DeliveryCredentials {
  username: string;
  password: string;
  /** Set for the built-in demo provider's own credentials: its deliveries are marked as the demo's. */
  source?: 'demo';
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
 * Checks an `Authorization: Basic …` header against every set of credentials accepted right now (the owner's, and
 * the demo provider's own while it runs); answers the set that matched. SECURITY: user names and passwords are compared
 * as SHA-256 digests with timingSafeEqual (equal lengths, constant time), and every comparison always runs.
 */
export function basicAuthMatches(
  header: string | undefined,
  accepted: readonly DeliveryCredentials[],
): DeliveryCredentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const user = digest(colon >= 0 ? decoded.slice(0, colon) : '');
  const password = digest(colon >= 0 ? decoded.slice(colon + 1) : '');
  let found: DeliveryCredentials | null = null;
  for (const expected of accepted) {
    const userOk = timingSafeEqual(user, expectedDigest(expected.username));
    const passwordOk = timingSafeEqual(password, expectedDigest(expected.password));
    if (userOk && passwordOk && !found) found = expected;
  }
  return match !== null && colon >= 0 ? found : null;
}
