import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { TunnelProvider } from '../../src/main/intake/tunnel';

/**
 * A stand-in for ngrok (whose service cannot be reached from the test machines): a real HTTP forwarder on
 * loopback that relays requests to the listener, adding X-Forwarded-For as a tunnel does. It can refuse to
 * open (a bad authtoken) and drop and restore its connection.
 */
export function createFakeTunnelProvider(
  behaviour: {
    refuseWith?: string;
    /** Opens only after this long (ngrok's SDK waiting on a network that does not answer); Infinity: never. */
    openAfterMs?: number;
    /** The internet client each request comes from (a tunnel sees many; by default always 203.0.113.7). */
    clientOf?: (req: IncomingMessage) => string;
  } = {},
) {
  let server: Server | null = null;
  let onStatus: ((s: 'closed' | 'connected') => void) | null = null;
  let down = false;
  const opened: { forwardTo: string; authtoken: string; domain?: string }[] = [];
  /** Tunnels closed so far. */
  let closes = 0;

  const forwardedFor = (req: IncomingMessage) => {
    const client = behaviour.clientOf?.(req) ?? '203.0.113.7';
    const claimed = req.headers['x-forwarded-for'];
    return claimed ? `${String(claimed)}, ${client}` : client;
  };

  const provider: TunnelProvider = {
    async open(options) {
      if (behaviour.openAfterMs === Infinity) return new Promise<never>(() => undefined);
      if (behaviour.openAfterMs) await new Promise((resolve) => setTimeout(resolve, behaviour.openAfterMs));
      if (behaviour.refuseWith) throw new Error(behaviour.refuseWith);
      opened.push({
        forwardTo: options.forwardTo,
        authtoken: options.authtoken,
        ...(options.domain ? { domain: options.domain } : {}),
      });
      onStatus = options.onStatus;
      const target = new URL(options.forwardTo);
      server = createServer((req, res) => {
        if (down) {
          res.writeHead(502).end('tunnel down');
          return;
        }
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            // Like a real proxy, the client's own address is appended to whatever X-Forwarded-For it sent.
            headers: { ...req.headers, 'x-forwarded-for': forwardedFor(req) },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () => {
          closes += 1;
          return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
        },
      };
    },
  };
  return {
    provider,
    opened,
    closes: () => closes,
    drop() {
      down = true;
      onStatus?.('closed');
    },
    restore() {
      down = false;
      onStatus?.('connected');
    },
  };
}
