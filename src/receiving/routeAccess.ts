import type { FastifyRequest } from 'fastify';

// Who may call a route the receiver's caller adds, declared in the route's `config` and judged on the headers alone
// (receiver.ts, onRequest), before a byte of the body is read.

/** Whether a request says a body follows (a length above 0, or a chunked one). */
export const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** Who may call a route the caller adds: its `config` (exactly one of these). */
export type RouteAccess =
  /** Anyone; GET or HEAD without a body (the photo addresses Su fetches: unguessable, answer only what they mean to). */
  | { public: true }
  /** Anyone, with a body; each call counts as a failed login (answered 429 once one address made too many). */
  | { throttled: true }
  /**
   * The route's own check, on the headers alone (true: served); a refusal is a failed login. `stream`: a long-lived
   * answer (server-sent events) that must ping within `limits.streamIdleTimeoutMs`.
   */
  | { authenticate: (request: FastifyRequest) => boolean; stream?: boolean };

type Authenticated = Extract<RouteAccess, { authenticate: unknown }>;
type Access = { kind: 'public' } | { kind: 'throttled' } | { kind: 'authenticated'; route: Authenticated };

/** The access a route's config declares, or null for none (the receiver's own /push). Throws when it is ambiguous. */
export function accessOf(config: unknown): Access | null {
  const c = (config ?? {}) as { public?: unknown; throttled?: unknown; authenticate?: unknown };
  const kinds: Access[] = [];
  if (c.public === true) kinds.push({ kind: 'public' });
  if (c.throttled === true) kinds.push({ kind: 'throttled' });
  if (typeof c.authenticate === 'function') kinds.push({ kind: 'authenticated', route: c as Authenticated });
  if (kinds.length > 1) throw new Error('a route declares one access only: public, throttled or authenticate');
  return kinds[0] ?? null;
}
