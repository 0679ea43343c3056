import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import { createRefusalLog, createUptimeLog } from '../db/uptime';
import { basicAuthMatches, type DeliveryCredentials } from '../../receiving/basicAuth';
import { createGroupWriter, type GroupWriter } from '../../receiving/groupWriter';
import type { ListenerLimits } from '../../receiving/listenerGuard';
import { startReceiver, type ReceivedDelivery, type RunningReceiver } from '../../receiving/receiver';
import type { DeliveryFilers } from './deliveryKinds';
import { ingestGroup, type IngestResult, type PendingDelivery } from './ingest';

/** The uptime log's name for the periods the listener refused failed logins (shown with the downtime). */
export const GUARD_COMPONENT = 'guard';

export interface ListenerOptions {
  database: Database;
  /** Who files each kind of delivery (the inbox: messages and reviews). */
  filers: DeliveryFilers;
  now?: () => number;
  /** The Basic credentials a delivery may carry, each accepted; none refuses every delivery (none chosen yet). */
  credentials: () => readonly DeliveryCredentials[];
  /** Loopback port (0 picks a free one). */
  port: number;
  /** Called after the acknowledgement went out, for notifications and UI updates (never before). */
  onIngested?: (result: IngestResult) => void;
  /** Largest body accepted; real deliveries are a few kilobytes. */
  bodyLimit?: number;
  /** Failed-login throttling, connection caps and timeouts (src/receiving/listenerGuard.ts has the defaults). */
  limits?: Partial<ListenerLimits>;
  /**
   * Whether a forwarder is in front of the listener right now (the tunnel is on, or the owner set their own public
   * address through a reverse proxy): only then is its `X-Forwarded-For` believed. Asked at each failed login; by
   * default never (the socket address counts).
   */
  forwarded?: () => boolean;
  /**
   * Routes answered without credentials (the photo addresses Su fetches): each registers with
   * `config: { public: true }` and must answer only what it is meant to.
   */
  publicRoutes?: (app: FastifyInstance) => void;
}

export type RunningListener = RunningReceiver;

/** A delivery as the receiver hands it over, as the intake files it. */
const pending = (delivery: ReceivedDelivery): PendingDelivery => ({
  raw: delivery.raw,
  now: delivery.receivedAt,
  source: delivery.source === 'demo' ? 'demo' : null,
});

/**
 * The desktop's group commit: each group of deliveries filed into the app's data file in one transaction (ingest.ts),
 * nothing before the file's integrity check has said whether it is sound.
 */
export function createDeliveryWriter(
  database: Database,
  filers: DeliveryFilers,
  now: () => number = Date.now,
): GroupWriter<PendingDelivery, IngestResult> {
  return createGroupWriter((batch) => ingestGroup(database, filers, batch, now()), { ready: database.checked });
}

/**
 * The desktop's listener Su delivers to: the receiving side shared with the mailbox (src/receiving/receiver.ts: Basic
 * auth before any body, the guard, content encodings, group commit, the acknowledgement, 503 when it cannot store),
 * on 127.0.0.1, filing into the app's data file, with its uptime and the guard's refusals in the data file's uptime log.
 */
export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const { database, filers } = options;
  const now = options.now ?? Date.now;
  const uptime = createUptimeLog(database, 'listener', now);
  return startReceiver<IngestResult>({
    port: options.port,
    now,
    authorizePush: (authorization) => {
      const matched = basicAuthMatches(authorization, options.credentials());
      return matched ? { source: matched.source ?? null } : null;
    },
    commit: (batch) => ingestGroup(database, filers, batch.map(pending), now()),
    ready: database.checked,
    refusals: createRefusalLog(database, GUARD_COMPONENT, now),
    onListening: () => uptime.up(),
    onClosed: () => uptime.down(),
    onReceived: options.onIngested,
    bodyLimit: options.bodyLimit,
    limits: options.limits,
    forwarded: options.forwarded,
    routes: options.publicRoutes,
  });
}
