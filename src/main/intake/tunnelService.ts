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
export function createTunnelService(deps: { database: Database; provider: TunnelProvider; now: () => number }) {
  type TunnelState = Omit<TunnelStatus, 'authtokenSet' | 'domain'>;
  const uptime = createUptimeLog(deps.database, 'tunnel', deps.now);
  let tunnel: Tunnel | null = null;
  let status: TunnelState = { enabled: false, state: 'off', url: null, error: null };

  return {
    status: () => status,
    /**
     * Whether the tunnel forwards to the listener right now (or is about to, or reconnects): while it does, the
     * listener believes the client address it appends to X-Forwarded-For.
     */
    forwarding: () => status.state === 'starting' || status.state === 'up' || status.state === 'reconnecting',
    downtime: () => uptime.downSpans(),
    /** Opens the tunnel to `forwardTo`; a failure is a visible state with the reason, never a crash. */
    async open(options: { forwardTo: string; authtoken: string; domain?: string }): Promise<void> {
      if (tunnel) return;
      status = { enabled: true, state: 'starting', url: null, error: null };
      try {
        tunnel = await deps.provider.open({
          ...options,
          onStatus: (s) => {
            if (s === 'closed') {
              uptime.down('connection lost');
              status = { ...status, state: 'reconnecting' };
            } else {
              uptime.up();
              status = { ...status, state: 'up', error: null };
            }
          },
        });
        uptime.up();
        status = { enabled: true, state: 'up', url: tunnel.url, error: null };
      } catch (error) {
        tunnel = null;
        // SECURITY: ngrok's own messages can quote the authtoken ("Your authtoken: …"), also URL-encoded or in
        // base64; neither it nor any saved secret (the listener's password among them) leaves here, in any form.
        const message = redact(errorText(error), [options.authtoken, ...secretsOfDatabase(deps.database.db)]);
        status = { enabled: true, state: 'failed', url: null, error: `ngrok said: ${message}` };
      }
    },
    async close(): Promise<void> {
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
