import { createHash, timingSafeEqual } from 'node:crypto';

/** The partner credentials the provider sends with every push (the owner chooses them). */
export interface PushCredentials {
  username: string;
  password: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks an `Authorization: Basic …` header. SECURITY: both the user name and the password are compared as
 * SHA-256 digests with timingSafeEqual (equal lengths, constant time), and both comparisons always run.
 */
export function basicAuthMatches(header: string | undefined, expected: PushCredentials): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const user = colon >= 0 ? decoded.slice(0, colon) : '';
  const password = colon >= 0 ? decoded.slice(colon + 1) : '';
  const userOk = timingSafeEqual(digest(user), digest(expected.username));
  const passwordOk = timingSafeEqual(digest(password), digest(expected.password));
  return match !== null && colon >= 0 && userOk && passwordOk;
}
