import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { clientIdFromDomain } from '../../src/shared/clientId';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import type { Database } from '../../src/main/db/database';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { createOutbox } from '../../src/main/outbox/outbox';
import { replySenders } from '../../src/main/inbox/replySenders';
import { sendersAsKinds, type OutboxItem, type Timers } from '../../src/main/outbox/types';
import { issueToken } from '../../src/main/provider/auth';
import { createProviderClient, type ProviderClient } from '../../src/main/provider/client';
import { createHostClient } from '../../src/main/provider/http';
import { createTokenManager } from '../../src/main/provider/tokenManager';
import { tempDir } from './tempDir';
import { openAppDatabase } from '../../src/main/schema';

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2030, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** Timers that never fire by themselves: the test reads what the worker scheduled and calls `kick()`. */
export function manualTimers() {
  const pending = new Map<number, number>();
  let seq = 0;
  const timers: Timers = {
    setTimeout: (_fn, ms) => (pending.set(++seq, ms), seq),
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return { timers, delays: () => [...pending.values()] };
}

/**
 * The emulator on a fixed loopback port that can be stopped and started again there (the provider going away
 * and coming back). A restart starts from fresh state, so tokens issued before are unknown to it afterwards.
 */
export async function startRestartableEmulator() {
  let emulator: RunningEmulator | null = await startEmulator();
  const port = Number(new URL(emulator.mainUrl).port);
  const { mainUrl, tokenUrl } = emulator;
  const control = { ...createEmulatorControl(emulator), token: emulator.controlToken };
  return {
    mainUrl,
    tokenUrl,
    control,
    /** Requests on one Su path since the last (re)start. */
    requestsTo: async (path: string) => (await control.requests()).filter((r) => r.path.endsWith(path)),
    stop: async () => {
      await emulator?.close();
      emulator = null;
    },
    restart: async () => {
      // The same control token, so the test's control client keeps working across the restart.
      emulator = await startEmulator({ controlToken: control.token }, { port });
    },
    close: async () => emulator?.close(),
  };
}

/**
 * The real provider client, tokens issued by the emulator at `tokenIssuerUrl` with `clientSecret` (wrong on
 * purpose for the authorization tests), calls to `mainBaseUrl` (a silent server for the timeout tests).
 */
export function providerClient(options: {
  tokenIssuerUrl: string;
  mainBaseUrl?: string;
  tokenBaseUrl?: string;
  clientSecret?: string;
  timeoutMs?: number;
}): ProviderClient {
  const issuer = createHostClient(options.tokenIssuerUrl);
  const tokens = createTokenManager({
    environment: 'sandbox',
    issue: () =>
      issueToken(issuer, {
        clientId: clientIdFromDomain(DEMO_CREDENTIALS.domain),
        clientSecret: options.clientSecret ?? DEMO_CREDENTIALS.clientSecret,
      }),
  });
  return createProviderClient({
    mainBaseUrl: options.mainBaseUrl ?? options.tokenIssuerUrl,
    tokenBaseUrl: options.tokenBaseUrl ?? options.tokenIssuerUrl,
    tokens,
    timeoutMs: options.timeoutMs,
    credentials: {
      facilityAppId: DEMO_CREDENTIALS.facilityAppId,
      facilityApiKey: DEMO_CREDENTIALS.facilityApiKey,
      notificationUser: DEMO_CREDENTIALS.notificationUser,
      notificationPassword: DEMO_CREDENTIALS.notificationPassword,
      paymentApiName: DEMO_CREDENTIALS.paymentApiName,
      paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
    },
  });
}

/**
 * A loopback TCP server standing in for a misbehaving provider: it reads requests and never answers (a hung
 * provider), or answers every request with `answer` (e.g. 503) and closes the connection.
 */
export async function startStubServer(answer?: { status: number; body: unknown }) {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      // One request line per HTTP request is enough to count them.
      const lines = (chunk.toString('latin1').match(/^(GET|POST) /gm) ?? []).length;
      requests += lines;
      if (!answer || lines === 0) return;
      const body = JSON.stringify(answer.body);
      socket.end(
        `HTTP/1.1 ${answer.status} Stub\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/SUAPI`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A database file in a temp folder that a test can close and open again. */
export function databaseFile() {
  const dir = tempDir('innkeeper-outbox-');
  const path = join(dir.path, 'innkeeper.db');
  return { path, open: (): Database => openAppDatabase(path), remove: dir.remove };
}

/**
 * An outbox with the reply senders on `client()`, a manual clock and timers, jitter at its maximum (so a
 * backoff delay is exactly its ceiling) and every change recorded.
 */
export function replyOutbox(db: Database, client: () => ProviderClient, extra: { maxInFlight?: number } = {}) {
  const clock = manualClock();
  const timers = manualTimers();
  const changes: OutboxItem[] = [];
  const errors: unknown[] = [];
  const outbox = createOutbox({
    db,
    now: clock.now,
    random: () => 1,
    // The outbox alone: no inbox, so no review here has a reply yet (the inbox's own tests check that rule).
    kinds: sendersAsKinds(replySenders(client, () => false)),
    timers: timers.timers,
    onChange: (item) => changes.push(item),
    onError: (error) => errors.push(error),
    ...extra,
  });
  return { outbox, clock, timers, changes, errors };
}

/** Resolves when `predicate` holds, checking every few milliseconds (fails after `ms`). */
export async function until(predicate: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
