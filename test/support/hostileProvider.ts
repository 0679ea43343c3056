import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the hostile provider does with one request. */
export type HostileMove =
  /** Headers at once, then one byte every 2 s, never the end. */
  | 'trickle'
  /** A 200 whose body is `bytes` long (spaces after an opening brace). */
  | { huge: number }
  /** Passed to the upstream provider (the emulator) and its answer passed back. */
  | 'forward';

/**
 * A provider on 127.0.0.1 that misbehaves on purpose: for each request `move` decides (from the method, the path
 * and the body) whether it trickles its answer, answers a huge body, or passes the request to `upstream`.
 */
export async function startHostileProvider(options: {
  upstream?: string;
  move: (request: { method: string; path: string; body: string }) => HostileMove;
}) {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  const seen: { method: string; path: string; move: HostileMove }[] = [];

  const trickle = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
    const timer = setInterval(() => response.write(' '), 2_000);
    timers.add(timer);
    response.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  const forward = async (request: IncomingMessage, body: Buffer, response: ServerResponse) => {
    if (!options.upstream) return void response.writeHead(404).end();
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
      ),
    );
    const answer = await fetch(new URL(request.url ?? '/', options.upstream), {
      method: request.method,
      headers,
      ...(body.length ? { body } : {}),
    });
    const text = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(text);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const what = { method: request.method ?? 'GET', path: request.url ?? '/', body: body.toString('utf8') };
      const move = options.move(what);
      seen.push({ method: what.method, path: what.path, move });
      if (move === 'trickle') return trickle(response);
      if (move === 'forward') return void forward(request, body, response).catch(() => response.destroy());
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{${' '.repeat(move.huge - 2)}}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The requests it got, with what it did to each. */
    seen: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
