import type { FastifyInstance } from 'fastify';
import type { IntakeSettingsInput, IntakeStatus, QuarantinedDelivery } from '../../shared/intake';
import { AppFailure, errorText } from '../../shared/result';
import type { Database } from '../db/database';
import type { Secrets } from '../config/secrets';
import type { Settings } from '../config/settings';
import type { DeliveryCredentials } from '../../receiving/basicAuth';
import type { DeliveryFilers } from './deliveryKinds';
import type { IngestResult } from './ingest';
import { GUARD_COMPONENT, startListener, type RunningListener } from './listener';
import { writeProbe } from '../db/faults';
import { ngrokTunnelProvider, type TunnelProvider } from './tunnel';
import { createTunnelService } from './tunnelService';
import { createUptimeLog, downSpansOf } from '../db/uptime';

export const DEFAULT_PUSH_PORT = 8787;
/** How often a data file that could not be written at start is tried again. */
export const UNWRITABLE_RETRY_MS = 60_000;
const PASSWORD_KEY = 'push.password';
const TUNNEL_TOKEN_KEY = 'push.tunnelToken';

/** INNKEEPER_PUSH_PORT / _USER / _PASSWORD, for headless use and tests (they win over saved settings). */
export interface IntakeEnvironment {
  port?: number;
  username?: string;
  password?: string;
}

export interface IntakeServiceDeps {
  database: Database;
  settings: Settings;
  secrets: Secrets;
  env: IntakeEnvironment;
  now: () => number;
  /** Who files each kind of delivery (features declare theirs; read when a delivery arrives). */
  filers: DeliveryFilers;
  /** Each delivery, after Su was told it arrived. */
  onIngested: (result: IngestResult) => void;
  /** The listener is listening at this local address (null: it stopped). */
  onListening?: (localUrl: string | null) => void;
  /** Opens tunnels (ngrok in the app, a loopback forwarder in tests). */
  tunnelProvider?: TunnelProvider;
  /**
   * Credentials accepted besides the owner's (the built-in demo provider's own, while it runs: never the owner's);
   * a delivery carrying them is marked with their `source`.
   */
  otherCredentials?: () => readonly DeliveryCredentials[];
  /** Public routes on the listener (the photo addresses Su fetches). */
  publicRoutes?: (app: FastifyInstance) => void;
  /**
   * Whether the built-in demo is the provider in use. Then no one registered the port with Su, so when the port set
   * is taken by another program the listener takes a free one and says so (a real account keeps its port: the tunnel
   * or the owner's reverse proxy forwards to it).
   */
  onDemo?: () => boolean;
}

/**
 * Runs the partner endpoint with the owner's settings, restarts it when they change, and reports its health.
 * A listener that cannot start (port taken) is a visible state, not a crash.
 */
export function createIntakeService(deps: IntakeServiceDeps) {
  const { settings, secrets, env } = deps;
  let running: RunningListener | null = null;
  let error: string | null = null;
  const uptime = createUptimeLog(deps.database, 'listener', deps.now);
  const tunnels = createTunnelService({
    database: deps.database,
    provider: deps.tunnelProvider ?? ngrokTunnelProvider,
    now: deps.now,
  });
  /** While the data file cannot be written at start: the next try. */
  let retry: NodeJS.Timeout | null = null;
  let unwritableAtStart = false;
  /** While the demo listens on a free port because the one set was taken: the port set. */
  let portTaken: number | null = null;
  /** The listener did not start because its port was taken (with a real account: the owner chooses another). */
  let portInUse = false;
  /** Restarts one at a time (a save, the provider in use changing). */
  let restarting: Promise<void> = Promise.resolve();
  const tunnelEnabled = () => settings.get<boolean>('push.tunnel.enabled') ?? false;
  const tunnelDomain = () => settings.get<string>('push.tunnel.domain') ?? '';

  const port = () => env.port ?? settings.get<number>('push.port') ?? DEFAULT_PUSH_PORT;
  const username = () => env.username ?? settings.get<string>('push.username') ?? 'su-partner';
  const password = () => env.password ?? secrets.get(PASSWORD_KEY);
  const credentials = (): DeliveryCredentials | null => {
    const p = password();
    return p ? { username: username(), password: p } : null;
  };
  /** Every set of credentials a delivery may carry right now: the owner's, and the running demo provider's. */
  const accepted = (): DeliveryCredentials[] => {
    const own = credentials();
    return [...(own ? [own] : []), ...(deps.otherCredentials?.() ?? [])];
  };

  const receiverOn = (listenPort: number) =>
    startListener({
      database: deps.database,
      filers: deps.filers,
      port: listenPort,
      credentials: accepted,
      now: deps.now,
      onIngested: deps.onIngested,
      // X-Forwarded-For is believed only while a forwarder is in front: the tunnel, or the owner's reverse proxy.
      forwarded: () => tunnels.forwarding() || (settings.get<string>('push.publicUrl') ?? '') !== '',
      ...(deps.publicRoutes ? { publicRoutes: deps.publicRoutes } : {}),
    });
  const isPortInUse = (e: unknown) => e instanceof AppFailure && e.error.code === 'port_in_use';
  /**
   * The listener on the port set; on the demo, when another program holds that port, on a free one instead (the demo
   * delivers wherever the listener is, so its inbox fills all the same).
   */
  async function listen(): Promise<RunningListener> {
    const wanted = port();
    try {
      return await receiverOn(wanted);
    } catch (e) {
      if (!isPortInUse(e) || !deps.onDemo?.()) throw e;
      const standIn = await receiverOn(0);
      portTaken = wanted;
      return standIn;
    }
  }

  async function start(): Promise<void> {
    if (retry) clearTimeout(retry);
    retry = null;
    portTaken = null;
    portInUse = false;
    // A file that cannot be written (read-only file or folder, locked) would fail every delivery: the listener stays
    // off and says why, rather than answer on its port while the screen says it is not listening; it is tried again
    // every UNWRITABLE_RETRY_MS and starts by itself once writing works. The probe writes nothing to disk, so a FULL
    // disk is found by the first delivery that cannot be stored (503, "cannot store since"). A DAMAGED file is
    // different too: the listener runs and answers 503, so that Su keeps the deliveries and reposts them.
    const unwritable = writeProbe(deps.database.db);
    if (unwritable) {
      running = null;
      unwritableAtStart = true;
      deps.database.health.cannotWrite(unwritable, deps.now());
      error = `Innkeeper cannot write to its data file (${unwritable.reason}), so it cannot store messages and does not receive them until it can. Make the data folder and its files writable; Innkeeper tries again every minute.`;
      retry = setTimeout(() => void start(), UNWRITABLE_RETRY_MS);
      retry.unref();
      return;
    }
    try {
      running = await listen();
      error = null;
      // Writing works again (the probe passed and the listener recorded its start): the period ends, on screen too.
      if (unwritableAtStart) {
        unwritableAtStart = false;
        deps.database.health.writeSucceeded(deps.now());
      }
      deps.onListening?.(running.localUrl);
      const authtoken = secrets.get(TUNNEL_TOKEN_KEY);
      if (tunnelEnabled() && authtoken) {
        await tunnels.open({
          forwardTo: `http://127.0.0.1:${running.port}`,
          authtoken,
          ...(tunnelDomain() ? { domain: tunnelDomain() } : {}),
        });
      }
    } catch (e) {
      running = null;
      portInUse = isPortInUse(e);
      error = e instanceof AppFailure ? e.error.message : `The listener could not start: ${errorText(e)}`;
    }
  }

  async function stop(): Promise<void> {
    if (retry) clearTimeout(retry);
    retry = null;
    await tunnels.close();
    await running?.close();
    running = null;
    portTaken = null;
    portInUse = false;
    deps.onListening?.(null);
  }

  /** Stops and starts the listener, after any restart already under way; fails as the stop fails. */
  function restart(): Promise<void> {
    const next = restarting.then(async () => {
      await stop();
      await start();
    });
    restarting = next.catch(() => undefined);
    return next;
  }

  return {
    start,
    stop,
    /** The credentials Su uses (INNKEEPER_PUSH_USER/_PASSWORD, else the saved ones); null while no password is set. */
    credentials,
    /**
     * The provider in use changed: a demo listening on a free port goes back to the port set when the owner leaves
     * it, and a listener whose port was taken starts on a free one when the owner switches to the demo. True when it
     * restarted.
     */
    async providerChanged(): Promise<boolean> {
      const onDemo = deps.onDemo?.() ?? false;
      if (!((portTaken !== null && !onDemo) || (portInUse && onDemo))) return false;
      await restart();
      return true;
    },
    status(): IntakeStatus {
      const tunnel = {
        ...tunnels.status(),
        enabled: tunnelEnabled(),
        authtokenSet: secrets.has(TUNNEL_TOKEN_KEY),
        domain: tunnelDomain(),
      };
      const publicUrl = settings.get<string>('push.publicUrl') ?? '';
      return {
        // The port set (the form's); the one the demo took instead is in localUrl, and portNote says why.
        port: portTaken ?? running?.port ?? port(),
        username: username(),
        passwordSet: password() !== null,
        fromEnvironment: {
          port: env.port !== undefined,
          username: env.username !== undefined,
          password: env.password !== undefined,
        },
        listening: running !== null,
        localUrl: running?.localUrl ?? null,
        portNote:
          portTaken !== null && running
            ? `Port ${portTaken} is taken by another program, so the demo listens on port ${running.port} instead. With your own Su account, Innkeeper receives on the port you set.`
            : null,
        publicUrl,
        error,
        downtime: [...uptime.downSpans(), ...tunnels.downtime(), ...downSpansOf(deps.database, GUARD_COMPONENT)].map(
          ({ component, from, to, reason }) => ({ component, from, to, reason }),
        ),
        quarantined: (
          deps.database.db.prepare('SELECT count(*) AS n FROM quarantine WHERE dismissed_at IS NULL').get() as {
            n: number;
          }
        ).n,
        demoConnected: running !== null && (deps.otherCredentials?.() ?? []).some((c) => c.source === 'demo'),
        tunnel,
        registerUrl: tunnel.state === 'up' && tunnel.url ? `${tunnel.url}/push` : publicUrl || null,
      };
    },
    /** Quarantined deliveries not yet dismissed, newest first. */
    quarantine(): QuarantinedDelivery[] {
      return (
        deps.database.db
          .prepare(
            `SELECT q.id, q.reason, l.kind, l.received_at, l.body FROM quarantine q JOIN push_log l ON l.id = q.push_log_id
             WHERE q.dismissed_at IS NULL ORDER BY q.id DESC LIMIT 200`,
          )
          .all() as {
          id: number;
          reason: string;
          kind: QuarantinedDelivery['kind'];
          received_at: number;
          body: string | Uint8Array;
        }[]
      ).map((r) => ({
        id: r.id,
        reason: r.reason,
        kind: r.kind,
        receivedAt: r.received_at,
        // Bytes that were not UTF-8 are kept raw in the log; shown here with the unreadable bytes marked.
        body: typeof r.body === 'string' ? r.body : new TextDecoder().decode(r.body),
      }));
    },
    /** The owner looked at it: it leaves the list (the raw delivery stays in the push log). */
    dismissQuarantined(id: number): void {
      deps.database.db
        .prepare('UPDATE quarantine SET dismissed_at = ? WHERE id = ? AND dismissed_at IS NULL')
        .run(deps.now(), id);
    },
    /** Saves the settings (secret first) and restarts the listener with them. */
    async save(input: IntakeSettingsInput): Promise<IntakeStatus> {
      if (input.tunnel?.enabled && input.tunnel.authtoken === undefined && !secrets.has(TUNNEL_TOKEN_KEY)) {
        throw new AppFailure({
          code: 'validation',
          message: 'The tunnel needs your ngrok authtoken (from the ngrok dashboard).',
          field: 'tunnel.authtoken',
          fields: { 'tunnel.authtoken': 'Paste your ngrok authtoken to turn the tunnel on.' },
          retryable: false,
        });
      }
      if (input.password !== undefined) secrets.set(PASSWORD_KEY, input.password);
      if (input.tunnel?.authtoken !== undefined) secrets.set(TUNNEL_TOKEN_KEY, input.tunnel.authtoken);
      settings.set('push.tunnel.enabled', input.tunnel?.enabled ?? false);
      settings.set('push.tunnel.domain', input.tunnel?.domain ?? '');
      settings.set('push.port', input.port);
      settings.set('push.username', input.username);
      settings.set('push.publicUrl', input.publicUrl ?? '');
      await restart();
      return this.status();
    },
  };
}
export type IntakeService = ReturnType<typeof createIntakeService>;
