// Kept apart from contract.ts, which holds every method's argument schema: the renderer's HTTP client needs only
// these, and importing contract.ts would load zod and every schema before the first screen.

/**
 * Browser mode: the unauthenticated address where the web host proves it knows the session before the page sends
 * it anything. `GET SESSION_PROOF_PATH?nonce=<page's random nonce>` answers, as text, the base64url HMAC-SHA256 of
 * `sessionProofMessage(nonce, port)` — bound to the port it listens on, so the app's proof cannot be relayed by a
 * program on another port — keyed with the session's proof key (UTF-8 of its base64url form).
 *
 * The proof key is the base64url HMAC-SHA256 of `SESSION_PROOF_KEY_LABEL` keyed with the session token: a page opened
 * with the session link works it out from the token; a page opened with the session cookie (which it cannot read) is
 * given it by `SESSION_PATH`. It proves the server to the page, and opens nothing.
 */
export const SESSION_PROOF_PATH = '/api/session-proof';
export const sessionProofMessage = (nonce: string, port: number) => `innkeeper-session-proof:${port}:${nonce}`;
export const SESSION_PROOF_KEY_LABEL = 'innkeeper-session-proof-key';

/**
 * `POST SESSION_PATH`, with the session token (Bearer) or the session cookie: answers `{ ok: true, value: {
 * proofKey } }` and sets the session cookie afresh; without either, 401 (and a cookie that is no longer valid is
 * removed). A page opened without the session link asks it whether this browser holds the cookie.
 */
export const SESSION_PATH = '/api/session';
