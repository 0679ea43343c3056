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
 * A typed client of the emulator's control API (not part of Su), for tests and the demo mode. Every call throws
 * with the emulator's error text when it answers with a failure.
 */
export function createEmulatorControl(controlUrl: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const parsed = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`emulator ${method} ${path}: ${parsed.error ?? response.status}`);
    return parsed;
  }
  return {
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
    pushes: () => call<PushOutcome[]>('GET', '/pushes'),
    completeTransaction: (transactionId: string) =>
      call<{ transaction_id: string; status: string }>('POST', '/transactions/complete', {
        transaction_id: transactionId,
      }),
  };
}

export type EmulatorControl = ReturnType<typeof createEmulatorControl>;
