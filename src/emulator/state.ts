import { randomBytes } from 'node:crypto';
import type { RuleCalendar } from './calendar';
import type { PushOutcome } from './pushDelivery';
import type { EmulatorOptions } from './options';
import { seedPartners, seedProperties, type EmulatedProperty, type PaymentPartner } from './seed';

export type { EmulatedProperty, PaymentPartner, Room, RatePlan, Channel244Account } from './seed';

/** One facility as last set; instances carry their detail objects as received plus an instance_id. */
export interface StoredFacility {
  facility_id: string;
  is_available: boolean;
  instances: ({ instance_id: string } & Record<string, unknown>)[];
}

/** An image held for a property. */
export interface StoredImage {
  imageid: number;
  pms_imageid: string;
  image_name: string;
  source_url: string;
  /** Associated with the property itself, and with these rooms. */
  property: boolean;
  rooms: Set<string>;
  /** Su's own copy: fetched from `source_url` after the create; `su_url` serves it (404 until fetched or when it failed). */
  fetch?: {
    state: 'pending' | 'ok' | 'failed';
    error: string | null;
    at: string | null;
    bytes: Buffer | null;
    contentType: string | null;
  };
}

/** A payment transaction started by a card payment link or a widget link. */
export interface Transaction {
  transaction_id: string;
  partner_id: string;
  kind: 'paycard' | 'widget';
  userId: string;
  amount: string;
  currency: string;
  order_id: string | null;
  booking_id: string | null;
  /** Where the payment page sends the customer after paying (paycard's optional return_url). */
  returnUrl: string | null;
  createdAt: number;
  /** Set by the control call or the payment page; otherwise completion follows `paymentCompleteSeconds`. */
  completedAt: number | null;
  /** Set when the control call declines the payment: the status is then `Failed` for good. */
  failedAt: number | null;
  pgTransactionId: string;
}

/** One request on a Su path, as `GET /_emulator/requests` shows it (secrets masked). */
export interface RequestRecord {
  method: string;
  path: string;
  at: number;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  response?: unknown;
}

/** A review the emulator pushed, remembered so that replies can be checked against it. */
export interface PushedReview {
  hotelid: string;
  channel: string;
  eligible: boolean;
  fromGuest: boolean;
  hasBooking: boolean;
  replies: string[];
}

export type IdKind = 'instance' | 'image' | 'push';

/** Everything the emulator remembers between requests. */
export interface EmulatorState {
  options: EmulatorOptions;
  /** Seconds added to the wall clock, so tests can make tokens expire without waiting. */
  clockOffsetMs: number;
  now(): number;
  tokens: Map<string, { expiresAt: number }>;
  /** Issue times per client-id, for the 30-per-hour limit. */
  issued: Map<string, number[]>;
  properties: EmulatedProperty[];
  /** Every request received on the Su paths, newest last (headers minus secrets). */
  requests: RequestRecord[];
  newToken(): string;
  /** `${hotelid}|${roomid or ""}` → facility_id → facility. */
  facilities: Map<string, Map<string, StoredFacility>>;
  /** hotelid → the last property update body accepted. */
  propertyRecords: Map<string, Record<string, unknown>>;
  images: Map<string, StoredImage[]>;
  /** `${hotelid}|${roomid}` → inventory rules; `${hotelid}|${roomid}|${rateid}` → rate rules. */
  inventoryRules: Map<string, RuleCalendar>;
  rateRules: Map<string, RuleCalendar>;
  partners: Map<string, PaymentPartner>;
  transactions: Map<string, Transaction>;
  /** order ids already used, per partner (the provider requires order_id to be unique). */
  orderIds: Set<string>;
  /** Where pushes go (`POST /_emulator/partner`). */
  partnerEndpoint: { url: string; username: string; password: string } | null;
  pushes: PushOutcome[];
  /** channel_review_id (current) or reviewid (legacy) → what was pushed. */
  reviews: Map<string, PushedReview>;
  /** The last id handed out of each kind (kept with the state, so that a restored emulator never reuses one). */
  counters: Record<IdKind, number>;
  /** A counter for ids that must differ on every use (instance ids, image ids, message ids …). */
  nextId(kind: IdKind): number;
  /**
   * Called when something changed outside a request (an image's copy was fetched or drawn): an emulator that keeps
   * its state in a file writes it then (see persistence.ts). Nothing by default.
   */
  changed(): void;
  property(hotelid: unknown): EmulatedProperty | undefined;
}

export function createEmulatorState(options: EmulatorOptions): EmulatorState {
  const state: EmulatorState = {
    options,
    clockOffsetMs: 0,
    now: () => Date.now() + state.clockOffsetMs,
    tokens: new Map(),
    issued: new Map(),
    properties: seedProperties(),
    requests: [],
    newToken: () =>
      `${options.environment === 'production' ? 'live_' : 'sandbox_'}${randomBytes(24).toString('base64url')}`,
    facilities: new Map(),
    propertyRecords: new Map(),
    images: new Map(),
    inventoryRules: new Map(),
    rateRules: new Map(),
    partners: new Map(seedPartners().map((p) => [p.partner_id, p])),
    transactions: new Map(),
    orderIds: new Set(),
    partnerEndpoint: options.partnerUrl
      ? { url: options.partnerUrl, username: options.partnerUsername, password: options.partnerPassword }
      : null,
    pushes: [],
    reviews: new Map(),
    counters: { instance: 5000, image: 11000, push: 0 },
    nextId: (kind) => ++state.counters[kind],
    changed: () => undefined,
    property: (hotelid) => state.properties.find((p) => p.hotelid === hotelid),
  };
  return state;
}
