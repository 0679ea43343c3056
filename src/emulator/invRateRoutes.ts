import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  addDays,
  applyRanges,
  isIsoDate,
  isoDate,
  type ChannelRule,
  type RuleCalendar,
  type RuleRange,
  type RuleType,
} from './calendar';
import { bearerAuth } from './credentials';
import type { EmulatedProperty, EmulatorState } from './state';
import { array, body as readBody, Invalid, isObject, join, string, type Json } from './validate';

/** How far ahead rules may reach: at most 500 days (the provider refuses past dates with code 925). */
export const MAX_DAYS_AHEAD = 500;

type Kind = 'inventory' | 'rate';
const TYPES: Record<Kind, RuleType[]> = {
  inventory: ['Fixed', 'Increase', 'Decrease'],
  rate: ['Fixed', 'Increase', 'Decrease', 'Multiply'],
};

/** A number sent as a JSON number or as decimal text (the samples send "6", "1.50"). */
function numeric(value: unknown, at: string): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) throw new Invalid(at, `${JSON.stringify(value)} is not a number of zero or more`);
  return n;
}

function readRule(raw: unknown, at: string, kind: Kind): ChannelRule {
  if (!isObject(raw)) throw new Invalid(at, 'is required (an object with type and value, or closed)');
  const rule: ChannelRule = {};
  if (raw.type !== undefined) {
    if (!TYPES[kind].includes(raw.type as RuleType)) {
      const why = raw.type === 'Multiply' ? 'Multiply is for rates only' : `must be one of ${TYPES[kind].join(', ')}`;
      throw new Invalid(join(at, 'type'), why);
    }
    rule.type = raw.type as RuleType;
    if (raw.value === undefined || raw.value === null)
      throw new Invalid(join(at, 'value'), `is required with type ${rule.type}`);
    rule.value = numeric(raw.value, join(at, 'value'));
    if (kind === 'inventory' && !Number.isInteger(rule.value))
      throw new Invalid(join(at, 'value'), 'inventory is a whole number');
  } else if (raw.value !== undefined) throw new Invalid(join(at, 'type'), 'is required when a value is given');
  if (raw.closed !== undefined) {
    if (kind === 'inventory') throw new Invalid(join(at, 'closed'), 'closed is only available in ratecontrol');
    if (typeof raw.closed !== 'boolean') throw new Invalid(join(at, 'closed'), 'must be true or false');
    rule.closed = raw.closed;
  }
  if (rule.type === undefined && rule.closed === undefined) {
    throw new Invalid(at, kind === 'rate' ? 'needs type and value, or closed' : 'needs type and value');
  }
  return rule;
}

function readRanges(item: Json, path: string, kind: Kind, today: string): RuleRange[] {
  const dates = array(item, 'date', path, true);
  if (dates.length === 0) throw new Invalid(join(path, 'date'), 'must list at least one date range');
  return dates.map((raw, i) => {
    const at = join(join(path, 'date'), i);
    if (!isObject(raw)) throw new Invalid(at, 'must be an object');
    for (const key of ['from', 'to'] as const) {
      if (!isIsoDate(raw[key])) throw new Invalid(join(at, key), 'must be a date in YYYY-MM-DD form');
    }
    const from = raw.from as string;
    const to = raw.to as string;
    if (to < from) throw new Invalid(join(at, 'to'), `must not be before from (${from})`);
    // The provider's own wording, without a field path, as in its real answers.
    if (from < today) throw new Invalid('', `fromdate has passed (${from})`, '925');
    if (to > addDays(today, MAX_DAYS_AHEAD)) {
      throw new Invalid('', `todate is more than ${MAX_DAYS_AHEAD} days ahead (${to})`, '925');
    }
    const seen = new Set<string>();
    const rules = array(raw, 'OTARule', at, true).map((entry, j) => {
      const ruleAt = join(join(at, 'OTARule'), j);
      if (!isObject(entry)) throw new Invalid(ruleAt, 'must be an object');
      const codes = array(entry, 'OTACode', ruleAt, true);
      if (codes.length === 0) throw new Invalid(join(ruleAt, 'OTACode'), 'must list at least one channel code');
      // Unknown codes (189, 150, 284 …) are channels like any other: kept by their number, never dropped.
      const channels = codes.map((code, k) => {
        const text = typeof code === 'number' && Number.isInteger(code) ? String(code) : code;
        if (typeof text !== 'string' || !/^\d+$/.test(text)) {
          throw new Invalid(join(join(ruleAt, 'OTACode'), k), 'must be a numeric channel code');
        }
        if (seen.has(text))
          throw new Invalid(join(join(ruleAt, 'OTACode'), k), `channel ${text} appears twice in this range`);
        seen.add(text);
        return text;
      });
      return { channels, rule: readRule(entry.rule, join(ruleAt, 'rule'), kind) };
    });
    return { from, to, rules };
  });
}

interface Control {
  calendars: Map<string, RuleCalendar>;
  key: string;
  ranges: RuleRange[];
}

function readControl(state: EmulatorState, raw: unknown): Control[] {
  const b = readBody(raw);
  const hotelid = string(b, 'hotelid', '', { required: true, max: 20 });
  const property = state.property(hotelid);
  if (!property) throw new Invalid('hotelid', `invalid hotel code (${hotelid})`, '400');
  const today = isoDate(state.now());
  const inventory = array(b, 'inventorycontrol', '') ?? [];
  const rates = array(b, 'ratecontrol', '') ?? [];
  if (inventory.length + rates.length === 0) throw new Invalid('', 'inventorycontrol or ratecontrol is required');
  const controls: Control[] = [];
  inventory.forEach((item, i) => {
    const at = join('inventorycontrol', i);
    if (!isObject(item)) throw new Invalid(at, 'must be an object');
    const room = findRoom(property, item, at);
    controls.push({
      calendars: state.inventoryRules,
      key: `${property.hotelid}|${room.roomid}`,
      ranges: readRanges(item, at, 'inventory', today),
    });
  });
  rates.forEach((item, i) => {
    const at = join('ratecontrol', i);
    if (!isObject(item)) throw new Invalid(at, 'must be an object');
    const room = findRoom(property, item, at);
    const rateid = string(item, 'rateid', at, { required: true, numbers: true });
    if (!room.ratePlans.some((p) => p.rateid === rateid)) {
      throw new Invalid(join(at, 'rateid'), `no rate plan ${rateid} for room ${room.roomid}`);
    }
    controls.push({
      calendars: state.rateRules,
      key: `${property.hotelid}|${room.roomid}|${rateid}`,
      ranges: readRanges(item, at, 'rate', today),
    });
  });
  return controls;
}

function findRoom(property: EmulatedProperty, item: Json, at: string) {
  const roomid = string(item, 'roomid', at, { required: true, numbers: true });
  const room = property.rooms.find((r) => r.roomid === roomid);
  if (!room) throw new Invalid(join(at, 'roomid'), `no room ${roomid} in property ${property.hotelid}`);
  return room;
}

/**
 * Endpoint 13, inventory and rate control: validated whole, then applied in request order (see calendar.ts for
 * the semantics).
 */
export function registerInvRateRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/jservice/invratecontrol', { onRequest: bearerAuth(state) }, async (request, reply) => {
    let controls: Control[];
    try {
      controls = readControl(state, request.body);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      // Refusals come as HTTP 400 with Status NotProcessed, as the real provider's do; 925 is its date code.
      return reply
        .code(400)
        .send({ Errors: [{ Code: error.code ?? '400', ShortText: error.message }], Status: 'NotProcessed' });
    }
    for (const { calendars, key, ranges } of controls) {
      const calendar = calendars.get(key) ?? new Map();
      applyRanges(calendar, ranges);
      calendars.set(key, calendar);
    }
    // The success body is not in the contract; this is the one the real sandbox answers.
    return reply.send({ Success: 'Success', TicketId: randomBytes(8).toString('hex') });
  });
}
