import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTHORIZATION_REQUIRED, requireBearer } from './authRoutes';
import type { EmulatorState } from './state';

/**
 * The provider's four auth schemes as Fastify `onRequest` hooks. They run before the body is parsed, so a caller
 * without valid credentials learns that first, whatever its body holds.
 */
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

export const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const isJson = (request: FastifyRequest) => /^application\/json\b/i.test(header(request, 'content-type') ?? '');

/** Bearer access token from endpoint 1 (every jservice call but the facility set and notifications). */
export const bearerAuth =
  (state: EmulatorState): Hook =>
  async (request, reply) =>
    requireBearer(state, request, reply) ? undefined : reply;

/** Facility set: `app-id` and `Authorization: <API key>` (the raw key, no scheme), JSON body. */
export const appKeyAuth =
  (state: EmulatorState): Hook =>
  async (request, reply) => {
    const ok =
      header(request, 'app-id') === state.options.facilityAppId &&
      header(request, 'authorization') === state.options.facilityApiKey;
    if (!ok) return reply.code(401).send(AUTHORIZATION_REQUIRED);
    if (!isJson(request)) {
      return reply.code(400).send({ Status: 'Fail', Errors: [], Message: 'Content-Type: must be application/json' });
    }
    return undefined;
  };

/** Notifications: HTTP Basic with the notification user and password. */
export const basicAuth =
  (state: EmulatorState): Hook =>
  async (request, reply) => {
    const match = /^Basic\s+(\S+)$/i.exec(header(request, 'authorization') ?? '');
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const expected = `${state.options.notificationUser}:${state.options.notificationPassword}`;
    if (decoded === expected) return undefined;
    return reply.code(401).header('www-authenticate', 'Basic realm="Su"').send(AUTHORIZATION_REQUIRED);
  };

/**
 * Payment-token host: `x-api-name` + `x-api-key` and Content-Type application/json. Failures use the host's
 * envelope; `statusKey` is `status` on the partner endpoint and `Status` on the others, as the provider documents.
 */
export const paymentAuth =
  (state: EmulatorState, statusKey: 'status' | 'Status'): Hook =>
  async (request, reply) => {
    const problems: string[] = [];
    if (header(request, 'x-api-name') !== state.options.paymentApiName)
      problems.push('x-api-name : invalid or missing');
    if (header(request, 'x-api-key') !== state.options.paymentApiKey) problems.push('x-api-key : invalid or missing');
    if (problems.length) return reply.code(401).send({ [statusKey]: 'Fail', ErrorMessages: problems });
    if (!isJson(request)) {
      return reply.code(400).send({ [statusKey]: 'Fail', ErrorMessages: ['Content-Type : must be application/json'] });
    }
    return undefined;
  };
