/**
 * The provider's `client-id` header: the partner's domain encoded in base64.
 * Uses TextEncoder + btoa so it runs the same in the renderer and in Node.
 */
export function clientIdFromDomain(domain: string): string {
  const bytes = new TextEncoder().encode(domain.trim());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Reverses {@link clientIdFromDomain}; returns null when the value is not base64 of UTF-8 text. */
export function domainFromClientId(clientId: string): string | null {
  try {
    const binary = atob(clientId);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
