import type { FastifyInstance } from 'fastify';
import { calendarDay, daysBetween, isIsoDate, isoDate } from './calendar';
import { facilityKey } from './facilityRoutes';
import { completeTransaction, declineTransaction, transactionStatus } from './paymentRoutes';
import { registerPushRoutes } from './pushRoutes';
import { photosDrawn } from './seedPhotos';
import type { EmulatorState, StoredFacility } from './state';
import { isObject } from './validate';

/** The longest period one calendar query returns (two years of days). */
const MAX_CALENDAR_DAYS = 731;

const facilityList = (state: EmulatorState, hotelid: string, roomid: string | null): StoredFacility[] => [
  ...(state.facilities.get(facilityKey(hotelid, roomid))?.values() ?? []),
];

/** The emulator's own API under `/_emulator` (not part of Su), for tests and the demo. */
export function registerControlRoutes(control: FastifyInstance, state: EmulatorState): void {
  control.get('/health', async () => ({ ok: true }));

  control.post('/clock', async (request, reply) => {
    const body = request.body as { advanceSeconds?: unknown } | null;
    const seconds = Number(body?.advanceSeconds);
    if (!Number.isFinite(seconds)) return reply.code(400).send({ error: 'advanceSeconds: a number is required' });
    state.clockOffsetMs += seconds * 1000;
    return { now: new Date(state.now()).toISOString() };
  });

  control.get('/requests', async () => state.requests);
  control.delete('/requests', async () => {
    state.requests.length = 0;
    return { ok: true };
  });

  control.get('/state', async () => ({
    hotelid: state.properties[0]!.hotelid,
    today: isoDate(state.now()),
    properties: state.properties.map((p) => ({
      hotelid: p.hotelid,
      name: p.name,
      active: p.active,
      legalEntityId: p.legalEntityId,
      currency: p.currency,
      channels: p.channels,
      channel244Accounts: p.channel244Accounts.map((a) => a.accountId),
      rooms: p.rooms,
    })),
    partners: [...state.partners.values()].map((p) => ({
      partner_id: p.partner_id,
      email_address: p.email_address,
      status: p.status,
    })),
    partnerEndpoint: state.partnerEndpoint && {
      url: state.partnerEndpoint.url,
      username: state.partnerEndpoint.username,
    },
  }));

  control.get('/calendar', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const property = state.property(q.hotelid);
    if (!property) return reply.code(400).send({ error: `hotelid: no property ${q.hotelid ?? ''}` });
    const room = property.rooms.find((r) => r.roomid === q.roomid);
    if (!room) return reply.code(400).send({ error: `roomid: no room ${q.roomid ?? ''} in ${property.hotelid}` });
    const plan = q.rateid === undefined ? room.ratePlans[0]! : room.ratePlans.find((p) => p.rateid === q.rateid);
    if (!plan) return reply.code(400).send({ error: `rateid: no rate plan ${q.rateid} for room ${room.roomid}` });
    if (!q.channel || !/^\d+$/.test(q.channel))
      return reply.code(400).send({ error: 'channel: a numeric channel code' });
    if (!isIsoDate(q.from) || !isIsoDate(q.to)) return reply.code(400).send({ error: 'from and to: dates YYYY-MM-DD' });
    const length = daysBetween(q.from, q.to) + 1;
    if (length < 1 || length > MAX_CALENDAR_DAYS) {
      return reply.code(400).send({ error: `from..to: 1 to ${MAX_CALENDAR_DAYS} days` });
    }
    const inventoryRules = state.inventoryRules.get(`${property.hotelid}|${room.roomid}`);
    const rateRules = state.rateRules.get(`${property.hotelid}|${room.roomid}|${plan.rateid}`);
    const days = Array.from({ length }, (_, i) => {
      const date = isoDate(Date.parse(`${q.from}T00:00:00Z`) + i * 86_400_000);
      return calendarDay({
        date,
        channel: q.channel!,
        baseInventory: room.baseInventory,
        plan,
        inventoryRules,
        rateRules,
      });
    });
    return { hotelid: property.hotelid, roomid: room.roomid, rateid: plan.rateid, channel: q.channel, days };
  });

  // What the content endpoints stored for a property: the property record, facilities, images.
  control.get('/content', async (request, reply) => {
    const property = state.property((request.query as Record<string, string | undefined>).hotelid);
    if (!property) return reply.code(400).send({ error: 'hotelid: unknown property' });
    // The seeded photos' sizes are known once they are drawn.
    await photosDrawn(state);
    return {
      hotelid: property.hotelid,
      propertyRecord: state.propertyRecords.get(property.hotelid) ?? null,
      facilities: {
        property: facilityList(state, property.hotelid, null),
        rooms: Object.fromEntries(
          property.rooms.map((r) => [r.roomid, facilityList(state, property.hotelid, r.roomid)]),
        ),
      },
      // Each image with how Su's fetch of it went (the bytes themselves are served at su_url).
      images: (state.images.get(property.hotelid) ?? []).map(({ fetch, ...i }) => ({
        ...i,
        rooms: [...i.rooms],
        fetch: fetch
          ? {
              state: fetch.state,
              error: fetch.error,
              at: fetch.at,
              bytes: fetch.bytes?.length ?? 0,
              contentType: fetch.contentType,
            }
          : null,
      })),
    };
  });

  control.post('/transactions/complete', async (request, reply) => {
    const id = isObject(request.body) ? request.body.transaction_id : undefined;
    const t = typeof id === 'string' ? state.transactions.get(id) : undefined;
    if (!t) return reply.code(404).send({ error: `transaction_id: no transaction ${String(id)}` });
    // `outcome: "declined"` makes the payment fail instead (the card was refused).
    if (request.body && (request.body as Record<string, unknown>).outcome === 'declined') declineTransaction(state, t);
    else completeTransaction(state, t);
    return { transaction_id: t.transaction_id, status: transactionStatus(state, t) };
  });

  // Adds a notification to a channel-244 account, or makes the account fail (failure: text) or recover (null).
  control.post('/notifications', async (request, reply) => {
    const b = isObject(request.body) ? request.body : {};
    const property = state.property(b.hotelid);
    const account = property?.channel244Accounts.find((a) => a.accountId === b.account);
    if (!account) return reply.code(400).send({ error: 'hotelid and account: a seeded channel-244 account' });
    if (b.failure !== undefined) account.failure = typeof b.failure === 'string' ? b.failure : null;
    if (isObject(b.notification)) {
      const n = b.notification;
      const field = (key: string, fallback: string) => (typeof n[key] === 'string' ? (n[key] as string) : fallback);
      account.notifications.push({
        notification_id: field('notification_id', `ntf-${Date.now().toString(36)}`),
        notification_type: field('notification_type', 'GENERAL'),
        title: field('title', 'A message from the channel'),
        subtitle: field('subtitle', ''),
        cta_url: field('cta_url', 'https://www.airbnb.com/hosting'),
      });
    }
    return { account: account.accountId, failure: account.failure, notifications: account.notifications };
  });

  registerPushRoutes(control, state);
}
