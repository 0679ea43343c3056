import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorText } from '../shared/result';
import {
  confirmRequestSchema,
  deliveriesQuerySchema,
  MAILBOX_PROTOCOL_VERSION,
  pairRequestSchema,
  settingsRequestSchema,
  streamQuerySchema,
  type MailboxErrorAnswer,
  type MailboxHealth,
} from '../receiving/mailboxProtocol';
import { pairDevice } from './pairing';
import type { MailboxStore } from './store';
import type { StreamHub } from './stream';
import type { Uptime } from './uptime';

export interface RouteContext {
  store: MailboxStore;
  hub: StreamHub;
  uptime: Uptime;
  startedAt: number;
  /** The paired device whose bearer token the request carries, or null (checked again once the body is in). */
  deviceOf(request: FastifyRequest): string | null;
  /**
   * The route configs the listener checks before any body (RouteAccess): pairing is open to anyone but counted like a
   * failed login; the rest is a paired device's only (its stream a long-lived answer).
   */
  access: { pairing: Record<string, unknown>; device: Record<string, unknown>; stream: Record<string, unknown> };
}

/** The largest body a mailbox call takes (a pairing, a confirmation, the settings: a few hundred bytes). */
export const CALL_BODY_LIMIT = 16 * 1024;

const fail = (reply: FastifyReply, status: number, answer: MailboxErrorAnswer) =>
  reply.code(status).header('cache-control', 'no-store').send(answer);

/** A request's JSON body, or the 400 that says what is wrong with it (the body arrives as bytes). */
function jsonBody(request: FastifyRequest): { ok: true; value: unknown } | { ok: false; answer: MailboxErrorAnswer } {
  const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false, answer: { error: 'invalid', message: 'The body must be JSON.' } };
  }
}

/** Checks a value with a schema; the first problem names its field. */
function checked<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; answer: MailboxErrorAnswer } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const message =
    issue.code === 'unrecognized_keys'
      ? `${issue.keys.join(', ')}: not a field of this call`
      : field
        ? `${field}: ${issue.message}`
        : issue.message;
  return {
    ok: false,
    answer: {
      error: 'invalid',
      message,
      ...(field ? { field } : issue.code === 'unrecognized_keys' ? { field: issue.keys[0] } : {}),
    },
  };
}

/**
 * The mailbox's own calls (docs/mailbox.md, "The protocol"), beside Su's `/push`. Pairing is open to anyone (the
 * code is the credential); every other call is a paired device's, its bearer token checked by the listener before
 * any body is read, and asked again here (a device unpaired while its call was on its way gets 401).
 */
export function mailboxRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { store, hub } = ctx;
  const device = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const id = ctx.deviceOf(request);
    if (id === null) {
      void fail(reply.header('WWW-Authenticate', 'Bearer realm="Innkeeper mailbox"'), 401, {
        error: 'unauthorized',
        message: 'This computer is not paired with the mailbox (its device credential is wrong or was revoked).',
      });
      return null;
    }
    try {
      store.seen(id);
    } catch {
      // A full disk: when a device was last seen is not worth refusing its call.
    }
    return id;
  };
  const storeFailed = (reply: FastifyReply, error: unknown) => {
    console.error(`mailbox: the store failed: ${errorText(error)}`);
    return fail(reply.header('Retry-After', '60'), 503, {
      error: 'store_unavailable',
      message: 'The mailbox cannot write to its disk right now; try again later.',
    });
  };

  app.post('/mailbox/pair', { config: ctx.access.pairing, bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
    const body = jsonBody(request);
    if (!body.ok) return fail(reply, 400, body.answer);
    const input = checked(pairRequestSchema, body.value);
    if (!input.ok) return fail(reply, 400, input.answer);
    let outcome;
    try {
      outcome = pairDevice(store, input.value);
    } catch (error) {
      return storeFailed(reply, error);
    }
    if (outcome.status === 200)
      console.log(`mailbox: paired “${input.value.name}” (device ${outcome.answer.deviceId})`);
    return reply.code(outcome.status).header('cache-control', 'no-store').send(outcome.answer);
  });

  app.get('/mailbox/deliveries', { config: ctx.access.device }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const query = checked(deliveriesQuerySchema, request.query);
    if (!query.ok) return fail(reply, 400, query.answer);
    const page = store.deliveriesFor(id, query.value.after, query.value.limit);
    return reply.header('cache-control', 'no-store').send({
      deliveries: page.deliveries,
      last: page.deliveries.at(-1)?.seq ?? null,
      more: page.more,
    });
  });

  app.get('/mailbox/stream', { config: ctx.access.stream }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const query = checked(streamQuerySchema, request.query);
    if (!query.ok) return fail(reply, 400, query.answer);
    reply.hijack();
    hub.open(id, reply.raw, query.value.after);
  });

  app.post('/mailbox/confirm', { config: ctx.access.device, bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const body = jsonBody(request);
    if (!body.ok) return fail(reply, 400, body.answer);
    const input = checked(confirmRequestSchema, body.value);
    if (!input.ok) return fail(reply, 400, input.answer);
    try {
      return { confirmed: store.confirm(id, input.value.upTo) };
    } catch (error) {
      return storeFailed(reply, error);
    }
  });

  app.get('/mailbox/health', { config: ctx.access.device }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const health: MailboxHealth = {
      mailboxId: store.mailboxId,
      version: MAILBOX_PROTOCOL_VERSION,
      startedAt: ctx.startedAt,
      up: ctx.uptime.periods(20),
      lastDeliveryAt: store.lastDeliveryAt(),
      waiting: store.waiting(id),
      retentionDays: store.retentionDays(),
      devices: store.devices().map((d) => ({
        id: d.id,
        name: d.name,
        pairedAt: d.pairedAt,
        lastSeenAt: d.lastSeenAt,
        self: d.id === id,
      })),
    };
    return reply.header('cache-control', 'no-store').send(health);
  });

  app.delete('/mailbox/devices/:id', { config: ctx.access.device }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const target = (request.params as { id: string }).id;
    let removed: boolean;
    try {
      removed = store.removeDevice(target);
    } catch (error) {
      return storeFailed(reply, error);
    }
    if (!removed)
      return fail(reply, 404, { error: 'not_found', message: 'No device with this id is paired.', field: 'id' });
    hub.closeDevice(target);
    console.log(`mailbox: unpaired device ${target}`);
    return { unpaired: target };
  });

  app.put('/mailbox/settings', { config: ctx.access.device, bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
    const id = device(request, reply);
    if (id === null) return reply;
    const body = jsonBody(request);
    if (!body.ok) return fail(reply, 400, body.answer);
    const input = checked(settingsRequestSchema, body.value);
    if (!input.ok) return fail(reply, 400, input.answer);
    try {
      store.setRetentionDays(input.value.retentionDays);
      store.sweep();
    } catch (error) {
      return storeFailed(reply, error);
    }
    return { retentionDays: store.retentionDays() };
  });
}
