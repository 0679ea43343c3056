import type { FastifyRequest } from 'fastify';
import { errorText } from '../shared/result';
import { STREAM_PING_MS } from '../receiving/mailboxProtocol';
import { basicCredentials } from '../receiving/basicAuth';
import { startReceiver, type ReceivedDelivery, type RunningReceiver } from '../receiving/receiver';
import type { GroupOutcome } from '../receiving/groupWriter';
import type { ListenerLimits } from '../receiving/listenerGuard';
import { createMediaShelf, mediaRoutes, type MediaShelf } from './media';
import { mailboxRoutes } from './routes';
import { newPairingCode } from './pairing';
import { openMailboxStore, type MailboxStore } from './store';
import { createStreamHub } from './stream';
import { createUptime, HEARTBEAT_MS } from './uptime';

export interface MailboxOptions {
  /** The data folder (created 0700 when missing); one mailbox per folder. */
  dataDir: string;
  /** 0 picks a free one. */
  port: number;
  /** 127.0.0.1 unless told otherwise (behind Caddy on the same box, or 0.0.0.0 in a container). */
  host?: string;
  /** How long a delivery no device collected is kept (saved in the store; 30 days when never set). */
  retentionDays?: number;
  now?: () => number;
  heartbeatMs?: number;
  pingMs?: number;
  /** How often deliveries past the retention are forgotten (at the start too). */
  sweepEveryMs?: number;
  limits?: Partial<ListenerLimits>;
  bodyLimit?: number;
  /**
   * The addresses of the reverse proxy in front (Caddy on this box: 127.0.0.1): on a connection from one of them, the
   * last X-Forwarded-For entry names the client whose failed logins are counted; from anywhere else the header is
   * not believed.
   */
  trustProxy?: readonly string[];
  /**
   * The address Su reaches this mailbox at (`https://mailbox.example.com`), for the photos' addresses. Without it, the
   * address a computer used to hand a photo over (its Host, and https when the trusted proxy says so).
   */
  publicUrl?: string;
}

export interface RunningMailbox {
  /** `http://HOST:PORT`. */
  url: string;
  port: number;
  store: MailboxStore;
  /** Photos handed over for Su to fetch. */
  media: MediaShelf;
  receiver: RunningReceiver;
  /** The pairing code printed at this start (while no device is paired), else null. */
  pairingCode: string | null;
  /** Open device streams. */
  openStreams(): number;
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Whether a body is JSON (Su is answered 400 when it is not; the mailbox keeps it sealed all the same). */
function isJson(raw: Buffer): boolean {
  try {
    JSON.parse(raw.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The bearer token of a request, or null. */
const bearerOf = (request: FastifyRequest): string | null =>
  /^Bearer\s+([A-Za-z0-9_-]{16,200})\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;

/**
 * The mailbox: Su's `/push` through the same hardened receiver as the desktop's listener (src/receiving/receiver.ts),
 * accepted with any paired device's push credentials; each delivery sealed to every paired device in memory and
 * only then written, in the receiver's group commit (synchronous=FULL), acknowledged once committed; the devices
 * collect it (pages or a live stream), confirm, and it is forgotten.
 */
export async function startMailbox(options: MailboxOptions): Promise<RunningMailbox> {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const trusted = new Set((options.trustProxy ?? []).map((a) => a.replace(/^::ffff:/, '')));
  const store = openMailboxStore(options.dataDir, { now, lock: true });
  let sweeper: NodeJS.Timeout | null = null;
  try {
    if (options.retentionDays !== undefined) store.setRetentionDays(options.retentionDays);
    store.sweep();
    const pairingCode = store.devices().length === 0 ? newPairingCode(store).code : null;
    const hub = createStreamHub(store, options.pingMs ?? STREAM_PING_MS);
    const uptime = createUptime(store, options.heartbeatMs ?? HEARTBEAT_MS);
    const startedAt = now();
    const deviceOf = (request: FastifyRequest) => store.deviceOfToken(bearerOf(request));
    const authenticate = (request: FastifyRequest) => deviceOf(request) !== null;
    const shelf = createMediaShelf(store, options.dataDir);
    shelf.sweep();
    const fromProxy = (request: FastifyRequest) =>
      trusted.has((request.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
    const publicBase = (request: FastifyRequest): string => {
      if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
      const proto = fromProxy(request) && request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
      const hostHeader = request.headers.host ?? '';
      return `${proto}://${/^[A-Za-z0-9.:[\]-]{1,300}$/.test(hostHeader) ? hostHeader : `${host}:${request.socket.localPort}`}`;
    };

    const receiver = await startReceiver({
      host,
      port: options.port,
      now,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      // Asked with the connection's own address: only the trusted proxy's X-Forwarded-For is believed.
      forwarded: (socketAddress?: string) =>
        socketAddress !== undefined && trusted.has(socketAddress.replace(/^::ffff:/, '')),
      authorizePush: (header) => {
        const basic = basicCredentials(header);
        // Every device's credentials are compared even for a header that is not Basic (the same time either way).
        const matched = store.pushCredentialsMatch(basic?.username ?? '', basic?.password ?? '');
        return matched && basic ? { source: null } : null;
      },
      commit: (batch: readonly ReceivedDelivery[]): GroupOutcome<{ httpStatus: 200 | 400 }>[] => {
        // Throws when the store cannot write: every delivery of the group is answered 503 and reposted by Su.
        store.storeDeliveries(batch);
        setImmediate(() => hub.stored());
        return batch.map((delivery) => ({ result: { httpStatus: isJson(delivery.raw) ? 200 : 400 } }));
      },
      onListening: () => void uptime.up(),
      onClosed: () => uptime.down(),
      routes: (app) => {
        mediaRoutes(app, { shelf, publicBase, deviceOf, access: { device: { authenticate } } });
        mailboxRoutes(app, {
          store,
          hub,
          uptime,
          startedAt,
          deviceOf,
          access: {
            pairing: { throttled: true },
            device: { authenticate },
            stream: { authenticate, stream: true },
          },
        });
      },
    });
    sweeper = setInterval(() => {
      try {
        store.sweep();
      } catch (error) {
        console.error(`mailbox: old deliveries could not be forgotten: ${errorText(error)}`);
      }
      try {
        shelf.sweep();
      } catch (error) {
        console.error(`mailbox: photos past their day could not be forgotten: ${errorText(error)}`);
      }
    }, options.sweepEveryMs ?? SWEEP_EVERY_MS);
    sweeper.unref();
    const shown = host.includes(':') ? `[${host}]` : host;
    let closed = false;
    return {
      url: `http://${shown}:${receiver.port}`,
      port: receiver.port,
      store,
      media: shelf,
      receiver,
      pairingCode,
      openStreams: hub.openStreams,
      async close() {
        if (closed) return;
        closed = true;
        if (sweeper) clearInterval(sweeper);
        hub.closeAll();
        try {
          await receiver.close();
        } finally {
          store.close();
        }
      },
    };
  } catch (error) {
    if (sweeper) clearInterval(sweeper);
    store.close();
    throw error;
  }
}
