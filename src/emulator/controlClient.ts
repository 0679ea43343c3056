import type { CalendarDay } from './calendar';
import type { PushKind } from './pushBodies';
import type { PushOutcome } from './pushDelivery';
import type { RequestRecord, Room } from './state';

/** What `GET /_emulator/state` answers: the seeded ids a test or the demo needs. */
export interface EmulatorSeed {
  hotelid: string;
  today: string;
  properties: {
    hotelid: string;
    name: string;
    active: boolean;
    legalEntityId: string;
    currency: string;
    channels: Record<string, string>;
    channel244Accounts: string[];
    rooms: Room[];
  }[];
  partners: { partner_id: string; email_address: string; status: string }[];
  partnerEndpoint: { url: string; username: string } | null;
}

export interface CalendarQuery {
  hotelid: string;
  roomid: string;
  rateid?: string;
  channel: string;
  from: string;
  to: string;
}

/**
 * A typed client of the emulator's control API (not part of Su), for tests and the demo provider, with its token.
 * Every call throws with the emulator's error text when it answers with a failure.
 */
export function createEmulatorControl(emulator: { controlUrl: string; controlToken: string }) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const authorization = `Bearer ${emulator.controlToken}`;
    const response = await fetch(`${emulator.controlUrl}${path}`, {
      method,
      headers:
        body === undefined && method !== 'POST'
          ? { authorization }
          : { authorization, 'content-type': 'application/json' },
      ...(body === undefined && method !== 'POST' ? {} : { body: JSON.stringify(body ?? {}) }),
    });
    const parsed = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`emulator ${method} ${path}: ${parsed.error ?? response.status}`);
    return parsed;
  }
  return {
    /** Any control request, with the token (for tests of the API's own answers). */
    raw: (path: string, init: RequestInit = {}) =>
      fetch(`${emulator.controlUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${emulator.controlToken}`, ...(init.headers as Record<string, string>) },
      }),
    state: () => call<EmulatorSeed>('GET', '/state'),
    requests: () => call<RequestRecord[]>('GET', '/requests'),
    clearRequests: () => call<{ ok: true }>('DELETE', '/requests'),
    advanceClock: (seconds: number) => call<{ now: string }>('POST', '/clock', { advanceSeconds: seconds }),
    calendar: (q: CalendarQuery) =>
      call<{ hotelid: string; roomid: string; rateid: string; channel: string; days: CalendarDay[] }>(
        'GET',
        `/calendar?${new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined))}`,
      ),
    setPartner: (endpoint: { url: string; username: string; password: string }) =>
      call<{ url: string; username: string }>('POST', '/partner', endpoint),
    push: (request: { kind: PushKind; channel?: string } & Record<string, unknown>) =>
      call<PushOutcome>('POST', '/push', request),
    /** The demo's sample inbox, delivered push by push. */
    sampleInbox: () => call<{ pushes: number; acknowledged: number }>('POST', '/demo/inbox'),
    /** One everyday guest message in a new conversation. */
    everydayMessage: () => call<PushOutcome>('POST', '/demo/guest-message'),
    pushes: () => call<PushOutcome[]>('GET', '/pushes'),
    /** The guest pays (or, with `declined`, the card is refused) on the emulated payment page. */
    completeTransaction: (transactionId: string, outcome: 'paid' | 'declined' = 'paid') =>
      call<{ transaction_id: string; status: string }>('POST', '/transactions/complete', {
        transaction_id: transactionId,
        ...(outcome === 'declined' ? { outcome } : {}),
      }),
    /** Adds a notification to a channel-244 account, and/or makes the account fail (text) or recover (null). */
    notifications: (request: {
      hotelid: string;
      account: string;
      failure?: string | null;
      notification?: Partial<
        Record<'notification_id' | 'notification_type' | 'title' | 'subtitle' | 'cta_url', string>
      >;
    }) =>
      call<{ account: string; failure: string | null; notifications: { notification_id: string }[] }>(
        'POST',
        '/notifications',
        request,
      ),
    /** What the content endpoints stored for a property: its record, facilities (property and rooms), images. */
    content: (hotelid: string) =>
      call<{
        propertyRecord: Record<string, unknown> | null;
        facilities: { property: unknown[]; rooms: Record<string, unknown[]> };
        images: unknown[];
      }>('GET', `/content?hotelid=${encodeURIComponent(hotelid)}`),
  };
}

export type EmulatorControl = ReturnType<typeof createEmulatorControl>;
