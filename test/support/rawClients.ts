import { connect, type Socket } from 'node:net';

/**
 * A raw connection to 127.0.0.1:`port` that records what it was answered, whether it connected and whether the
 * server closed it; kept in `sockets` while open (the test's afterEach destroys what is left).
 */
export function rawConnection(port: number, sockets: Set<Socket>) {
  const socket = connect({ port, host: '127.0.0.1' });
  sockets.add(socket);
  const state = { answer: '', closed: false, connected: false };
  socket.on('connect', () => (state.connected = true));
  socket.on('data', (chunk) => (state.answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    state.closed = true;
    sockets.delete(socket);
  });
  return { socket, state };
}

/**
 * `slots` connections that each send `head` (announcing a 100,000-byte body), then one byte a second; a slot whose
 * connection is closed opens a new one a second later, so the flood is held until `stop`. `stats` counts the
 * connections made, the answers by status ('none': closed unanswered) and the body bytes sent.
 */
export function slowFlood(port: number, head: string, slots: number, sockets: Set<Socket>) {
  const stats = { connections: 0, answers: new Map<string, number>(), bodyBytes: 0 };
  const live = new Set<ReturnType<typeof rawConnection>>();
  let stopped = false;
  const open = () => {
    if (stopped) return;
    stats.connections += 1;
    const c = rawConnection(port, sockets);
    live.add(c);
    c.socket.on('connect', () => c.socket.write(head));
    c.socket.on('close', () => {
      live.delete(c);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(c.state.answer)?.[1] ?? 'none';
      stats.answers.set(status, (stats.answers.get(status) ?? 0) + 1);
      if (!stopped) setTimeout(open, 1_000).unref();
    });
  };
  for (let i = 0; i < slots; i++) open();
  const trickle = setInterval(() => {
    for (const c of live) {
      if (!c.socket.destroyed && c.socket.writable && !c.socket.connecting) {
        c.socket.write('x');
        stats.bodyBytes += 1;
      }
    }
  }, 1_000);
  return {
    stats,
    /** Connections of the flood open right now. */
    open: () => live.size,
    stop() {
      stopped = true;
      clearInterval(trickle);
      for (const c of live) c.socket.destroy();
    },
  };
}
