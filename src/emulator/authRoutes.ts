import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientIdFromDomain } from '../shared/clientId';
import type { EmulatorState } from './state';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The main service's failure envelope: Status Fail and an `Errors` array of Code and ShortText. */
export const failEnvelope = (code: string, shortText: string, message?: string) => ({
  Status: 'Fail',
  Errors: [{ Code: code, ShortText: shortText }],
  ...(message ? { Message: message } : {}),
});

/** The exact body the provider sends for an invalid or expired token (HTTP 401; fixture auth-failure-401). */
export const AUTHORIZATION_REQUIRED = { Status: 'Fail', Errors: { Code: '497', ShortText: 'Authorization Required' } };

/**
 * Bearer validation shared by every token-authenticated endpoint: answers 401 with the provider's body and
 * returns false when the token is missing, unknown or expired.
 */
export function requireBearer(state: EmulatorState, request: FastifyRequest, reply: FastifyReply): boolean {
  const auth = header(request, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(auth);
  const token = match ? state.tokens.get(match[1]!) : undefined;
  if (token && token.expiresAt > state.now()) return true;
  void reply.code(401).send(AUTHORIZATION_REQUIRED);
  return false;
}

/** Endpoints 1 (token issue) and 2 (pmsproperty, used to validate a token). */
export function registerAuthRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.get('/jservice/auth/generate-access-token', async (request, reply) => {
    const clientId = header(request, 'client-id');
    const clientSecret = header(request, 'client-secret');
    if (!clientId || !clientSecret) {
      const missing = !clientId ? 'client-id' : 'client-secret';
      return reply.code(400).send(failEnvelope('400', `Missing ${missing} header`));
    }
    if (clientId !== clientIdFromDomain(state.options.domain)) {
      return reply.code(401).send(failEnvelope('401', 'Invalid client-id: no partner is registered for this domain'));
    }
    if (clientSecret !== state.options.clientSecret) {
      return reply.code(401).send(failEnvelope('401', 'Invalid client-secret'));
    }
    const now = state.now();
    const recent = (state.issued.get(clientId) ?? []).filter((t) => t > now - 3_600_000);
    if (recent.length >= state.options.tokensPerHour) {
      return reply
        .code(429)
        .send(failEnvelope('429', `Token limit reached: at most ${state.options.tokensPerHour} tokens per 60 minutes`));
    }
    recent.push(now);
    state.issued.set(clientId, recent);
    const token = state.newToken();
    state.tokens.set(token, { expiresAt: now + state.options.tokenTtlSeconds * 1000 });
    return reply.send({
      Status: 'Success',
      Data: { token_type: 'Bearer', token, expire_in: String(state.options.tokenTtlSeconds) },
      Message: 'Access Token generated successfully',
    });
  });

  app.get('/jservice/pmsproperty', async (request, reply) => {
    if (!requireBearer(state, request, reply)) return reply;
    return reply.send({
      Status: 'Success',
      // Inactive properties are not offered to the partner (they exist only to answer with code 947).
      Data: state.properties.filter((p) => p.active).map((p) => ({ hotelid: p.hotelid, property_name: p.name })),
      Message: 'Properties fetched successfully',
    });
  });
}
