import type { PushKind } from './pushBodies';
import type { EmulatorState } from './state';
import { isObject, type Json } from './validate';

/**
 * Delivery of one push to the partner endpoint: HTTP Basic with the partner's credentials, the documented
 * acknowledgement expected, then up to 3 reposts, then the item is dropped.
 */

/** The first post and the provider's 3 reposts. */
export const MAX_ATTEMPTS = 4;

/**
 * The acknowledgement each kind must get, as the contract writes it: `{status: Success}` for messages and legacy
 * reviews, `{Status: Success}` for current reviews. Partners that answer with both keys satisfy every kind.
 */
export const ACK_KEY: Record<PushKind, 'status' | 'Status'> = {
  message: 'status',
  'legacy-review': 'status',
  review: 'Status',
};

export interface PushAttempt {
  at: string;
  status?: number;
  body?: unknown;
  /** Why the attempt did not count as acknowledged (absent when it did). */
  error?: string;
}

export interface PushOutcome {
  id: number;
  kind: PushKind;
  channel: string;
  url: string;
  body: Json;
  attempts: PushAttempt[];
  acknowledged: boolean;
  dropped: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Endpoint = NonNullable<EmulatorState['partnerEndpoint']>;

async function attempt(state: EmulatorState, endpoint: Endpoint, kind: PushKind, body: Json): Promise<PushAttempt> {
  const at = new Date(state.now()).toISOString();
  const timeout = state.options.pushTimeoutMs;
  const authorization = `Basic ${Buffer.from(`${endpoint.username}:${endpoint.password}`).toString('base64')}`;
  try {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text in the attempt, and not an acknowledgement.
    }
    const key = ACK_KEY[kind];
    if (response.ok && isObject(parsed) && parsed[key] === 'Success')
      return { at, status: response.status, body: parsed };
    const error = response.ok
      ? `HTTP ${response.status} without the acknowledgement {"${key}":"Success"}`
      : `HTTP ${response.status}`;
    return { at, status: response.status, body: parsed, error };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') return { at, error: `no answer within ${timeout} ms` };
    const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
    return { at, error: `network error: ${cause?.code ?? cause?.message ?? String(error)}` };
  }
}

/** Posts a push until it is acknowledged or {@link MAX_ATTEMPTS} attempts failed; records the outcome. */
export async function deliver(state: EmulatorState, kind: PushKind, channel: string, body: Json): Promise<PushOutcome> {
  // Reposts go where the first post went, even if the endpoint is changed meanwhile.
  const endpoint = state.partnerEndpoint;
  if (!endpoint) throw new Error('no partner endpoint');
  const outcome: PushOutcome = {
    id: state.pushes.length + 1,
    kind,
    channel,
    url: endpoint.url,
    body,
    attempts: [],
    acknowledged: false,
    dropped: false,
  };
  state.pushes.push(outcome);
  for (let i = 0; i < MAX_ATTEMPTS && !outcome.acknowledged; i++) {
    if (i > 0) await sleep(state.options.pushRetryIntervalMs);
    const result = await attempt(state, endpoint, kind, body);
    outcome.attempts.push(result);
    outcome.acknowledged = result.error === undefined;
  }
  // As at the provider: after the reposts the item leaves the queue for good.
  outcome.dropped = !outcome.acknowledged;
  return outcome;
}
