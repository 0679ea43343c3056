import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorState } from './state';
import { errorText } from '../shared/result';

/**
 * Body parsing, error envelopes and the request log shared by both hosts. The raw body is kept so that the log
 * shows what a client really sent even when it was not valid JSON.
 */

const rawBodies = new WeakMap<FastifyRequest, string>();
const sentBodies = new WeakMap<FastifyRequest, string>();

// SECURITY: the log is readable by anyone who can reach the control API, so credentials never enter it.
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'client-secret', 'x-api-key', 'cookie']);

function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (!SECRET_HEADERS.has(name)) masked[name] = value;
    else masked[name] = /^(Bearer|Basic)\s/i.test(value) ? `${value.split(/\s/)[0]} ***` : '***';
  }
  return masked;
}

/** Issued tokens are secrets too: the log keeps only their prefix. */
function maskResponse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  for (const key of ['Data', 'data']) {
    const data = (parsed as Record<string, unknown> | null)?.[key] as Record<string, unknown> | undefined;
    if (data && typeof data.token === 'string') data.token = `${data.token.split('_')[0]}_***`;
  }
  return parsed;
}

/** The failure envelope each part of the emulator uses for problems found before a route runs. */
function envelopeFor(url: string, field: string, reason: string): unknown {
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/token')) {
    return {
      [path.endsWith('/service/api/partner') ? 'status' : 'Status']: 'Fail',
      ErrorMessages: [`${field} : ${reason}`],
    };
  }
  if (/\/jservice\/(messagingAB|OTA_ReplyReview)$/.test(path))
    return { status: 'Fail', response: `${field}: ${reason}` };
  // As at the provider: a body the deserializer cannot read gets Status Fail, empty Errors and the reason.
  if (path.startsWith('/SUAPI')) return { Status: 'Fail', Errors: [], Message: `${field}: ${reason}` };
  return { error: `${field}: ${reason}` };
}

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, payload, done) => {
    const text = String(payload);
    rawBodies.set(request, text);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      const reason = `not valid JSON (${errorText(error)})`;
      done(Object.assign(new Error(reason), { statusCode: 400, field: 'body' }), undefined);
    }
  });
  // Only the emulated payment page posts a form; it carries no fields the emulator reads.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, payload, done) => {
    rawBodies.set(request, String(payload));
    done(null, Object.fromEntries(new URLSearchParams(String(payload))));
  });
}

export function installErrorEnvelopes(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { statusCode?: number; field?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error('emulator: unexpected error', error);
    const reason = status === 500 ? 'internal error in the emulator' : error.message;
    return reply.code(status).send(envelopeFor(request.url, error.field ?? 'request', reason));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(envelopeFor(request.url, 'path', `no endpoint ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/** Records every request on a Su path (everything outside `/_emulator`) with its answer. */
export function installRequestLog(app: FastifyInstance, state: EmulatorState): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (typeof payload === 'string') sentBodies.set(request, payload);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/_emulator')) return;
    state.requests.push({
      method: request.method,
      path: request.url,
      at: state.now(),
      headers: maskHeaders(request.headers),
      body: request.body ?? rawBodies.get(request),
      status: reply.statusCode,
      response: maskResponse(sentBodies.get(request)),
    });
    if (state.requests.length > 5000) state.requests.splice(0, state.requests.length - 5000);
  });
}
