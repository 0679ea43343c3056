import { errorText } from '../../shared/result';
import type { TunnelStatus } from '../../shared/intake';
import type { Database } from '../db/database';
import { redact, secretsOfDatabase } from '../gateway/secretLeaks';
import type { TunnelProvider, Tunnel } from './tunnel';
import { createUptimeLog } from '../db/uptime';

/**
 * Keeps the optional tunnel in line with the owner's settings: opens it after the listener is up, records when it
 * drops and comes back (the provider reposts only 3 times, then drops the delivery), and closes it on stop.
 */
/** How long ngrok may take to open the tunnel before the owner is told it did not (its SDK sets no limit). */
export const TUNNEL_OPEN_DEADLINE_MS = 30_000;

export function createTunnelService(deps: {
  database: Database;
  provider: TunnelProvider;
  now: () => number;
  /** TUNNEL_OPEN_DEADLINE_MS unless told (tests). */
  openDeadlineMs?: number;
}) {
  type TunnelState = Omit<TunnelStatus, 'authtokenSet' | 'domain'>;
  const uptime = createUptimeLog(deps.database, 'tunnel', deps.now);
  const deadlineMs = deps.openDeadlineMs ?? TUNNEL_OPEN_DEADLINE_MS;
  let tunnel: Tunnel | null = null;
  let status: TunnelState = { enabled: false, state: 'off', url: null, error: null };
  /** The open in progress, if any; a close (or a later open) makes an earlier one's result stale. */
  let opening: Promise<void> | null = null;
  let generation = 0;

  return {
    status: () => status,
    /**
     * Whether the tunnel forwards to the listener right now (or is about to, or reconnects): while it does, the
     * listener believes the client address it appends to X-Forwarded-For.
     */
    forwarding: () => status.state === 'starting' || status.state === 'up' || status.state === 'reconnecting',
    downtime: () => uptime.downSpans(),
    /**
     * Opens the tunnel to `forwardTo`; a failure is a visible state with the reason, never a crash. One that does not
     * open within the deadline has failed (the listener then no longer believes X-Forwarded-For); should it open
     * later all the same, or after a close, it is closed at once.
     */
    open(options: { forwardTo: string; authtoken: string; domain?: string }): Promise<void> {
      if (tunnel) return Promise.resolve();
      if (opening) return opening;
      const mine = ++generation;
      const current = () => mine === generation;
      status = { enabled: true, state: 'starting', url: null, error: null };
      const attempt = deps.provider.open({
        ...options,
        onStatus: (s) => {
          if (!current() || !tunnel) return;
          if (s === 'closed') {
            uptime.down('connection lost');
            status = { ...status, state: 'reconnecting' };
          } else {
            uptime.up();
            status = { ...status, state: 'up', error: null };
          }
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Error('no answer');
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(late), deadlineMs);
      });
      const run = async () => {
        try {
          const opened = await Promise.race([attempt, deadline]);
          if (!current()) {
            await opened.close().catch(() => undefined);
            return;
          }
          tunnel = opened;
          uptime.up();
          status = { enabled: true, state: 'up', url: opened.url, error: null };
        } catch (error) {
          // One that opens after all, late: closed as soon as it does.
          void attempt.then((late) => late.close()).catch(() => undefined);
          if (!current()) return;
          // SECURITY: ngrok's own messages can quote the authtoken ("Your authtoken: …"), also URL-encoded or in
          // base64; neither it nor any saved secret (the listener's password among them) leaves here, in any form.
          const message = redact(errorText(error), [options.authtoken, ...secretsOfDatabase(deps.database.db)]);
          status = {
            enabled: true,
            state: 'failed',
            url: null,
            error:
              error === late
                ? `ngrok did not answer within ${deadlineMs / 1000} seconds: check this computer’s internet connection, then save again.`
                : `ngrok said: ${message}`,
          };
        } finally {
          clearTimeout(timer);
          opening = null;
        }
      };
      opening = run();
      return opening;
    },
    async close(): Promise<void> {
      // An open still on its way is let go: its tunnel is closed when it arrives.
      generation += 1;
      opening = null;
      if (tunnel) {
        await tunnel.close().catch(() => undefined);
        uptime.down();
      }
      tunnel = null;
      status = { enabled: false, state: 'off', url: null, error: null };
    },
  };
}
export type TunnelService = ReturnType<typeof createTunnelService>;
