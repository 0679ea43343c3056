// Kept apart from contract.ts, which holds every method's argument schema: the renderer's HTTP client needs only
// these two, and importing contract.ts would load zod and every schema before the first screen.

/**
 * Browser mode: the unauthenticated address where the web host proves it knows the session token before the page
 * sends it. `GET SESSION_PROOF_PATH?nonce=<page's random nonce>` answers, as text, the base64url
 * HMAC-SHA256 keyed with the token of `sessionProofMessage(nonce, port)` — bound to the port it listens on, so
 * the app's proof cannot be relayed by a program on another port.
 */
export const SESSION_PROOF_PATH = '/api/session-proof';
export const sessionProofMessage = (nonce: string, port: number) => `innkeeper-session-proof:${port}:${nonce}`;
