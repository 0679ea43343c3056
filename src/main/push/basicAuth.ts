import { createHash, timingSafeEqual } from 'node:crypto';

/** The partner credentials the provider sends with every push (the owner chooses them). */
export interface PushCredentials {
  username: string;
  password: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks an `Authorization: Basic …` header against every set of credentials accepted right now (the owner's, and
 * the demo provider's own while it runs). SECURITY: user names and passwords are compared as SHA-256 digests with
 * timingSafeEqual (equal lengths, constant time), and every comparison always runs.
 */
export function basicAuthMatches(header: string | undefined, accepted: readonly PushCredentials[]): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const user = digest(colon >= 0 ? decoded.slice(0, colon) : '');
  const password = digest(colon >= 0 ? decoded.slice(colon + 1) : '');
  let found = false;
  for (const expected of accepted) {
    const userOk = timingSafeEqual(user, digest(expected.username));
    const passwordOk = timingSafeEqual(password, digest(expected.password));
    found = (userOk && passwordOk) || found;
  }
  return match !== null && colon >= 0 && found;
}
