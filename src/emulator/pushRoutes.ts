import type { FastifyInstance } from 'fastify';
import { buildPush, merge, PROPERTY_FIELD, PUSH_CHANNELS, rememberReview, type PushKind } from './pushBodies';
import { deliverSampleInbox, everydayMessage } from './demoInbox';
import { deliver } from './pushDelivery';
import type { EmulatorState } from './state';
import { isHttpUrl, isObject } from './validate';

/**
 * Control API for pushes (not part of Su): where they go, sending one, and the delivery log.
 * `POST /push` answers only when the delivery is settled (acknowledged, or dropped after 4 attempts).
 */
export function registerPushRoutes(control: FastifyInstance, state: EmulatorState): void {
  control.post('/partner', async (request, reply) => {
    const b = isObject(request.body) ? request.body : {};
    if (typeof b.url !== 'string' || !isHttpUrl(b.url)) {
      return reply.code(400).send({ error: 'url: an http or https URL is required' });
    }
    if (typeof b.username !== 'string' || typeof b.password !== 'string') {
      return reply.code(400).send({ error: 'username and password: strings are required (the Basic credentials)' });
    }
    state.partnerEndpoint = { url: b.url, username: b.username, password: b.password };
    return { url: b.url, username: b.username };
  });

  control.post('/push', async (request, reply) => {
    if (!isObject(request.body)) return reply.code(400).send({ error: 'a JSON object body is required' });
    const { kind, channel: rawChannel, ...overrides } = request.body;
    if (typeof kind !== 'string' || !Object.hasOwn(PUSH_CHANNELS, kind)) {
      return reply.code(400).send({ error: 'kind: one of "message", "review", "legacy-review"' });
    }
    const pushKind = kind as PushKind;
    const allowed = PUSH_CHANNELS[pushKind];
    const channel = rawChannel === undefined ? allowed[0]! : String(rawChannel);
    if (!allowed.includes(channel)) {
      const why =
        pushKind === 'review'
          ? 'current reviews come from channels 19 and 9 (use kind "legacy-review" for 244)'
          : pushKind === 'legacy-review'
            ? 'legacy reviews come from channel 244 only (use kind "review" for 19 and 9)'
            : 'messages come from channels 244, 19 and 9';
      return reply.code(400).send({ error: `channel ${channel}: ${why}` });
    }
    const hotelid = overrides[PROPERTY_FIELD[pushKind]] ?? state.properties[0]!.hotelid;
    const property = state.property(hotelid);
    if (!property)
      return reply.code(400).send({ error: `${PROPERTY_FIELD[pushKind]}: no property ${String(hotelid)}` });
    if (!state.partnerEndpoint) {
      return reply.code(409).send({ error: 'no partner endpoint: set one with POST /_emulator/partner first' });
    }
    const body = merge(buildPush(state, pushKind, channel, property), overrides);
    rememberReview(state, pushKind, body);
    return deliver(state, pushKind, channel, body);
  });

  control.get('/pushes', async () => state.pushes);

  // The demo provider's sample inbox, delivered push by push; answers when every push is settled.
  control.post('/demo/inbox', async (_request, reply) => {
    if (!state.partnerEndpoint) return reply.code(409).send({ error: 'no partner endpoint: set one first' });
    const outcomes = await deliverSampleInbox(state);
    return { pushes: outcomes.length, acknowledged: outcomes.filter((o) => o.acknowledged).length };
  });

  // One everyday guest message in a new conversation (the demo's "now and then" message).
  control.post('/demo/guest-message', async (_request, reply) => {
    if (!state.partnerEndpoint) return reply.code(409).send({ error: 'no partner endpoint: set one first' });
    const push = everydayMessage(state);
    return deliver(state, push.kind, push.channel, push.body);
  });
}
