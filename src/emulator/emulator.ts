import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './authRoutes';
import { guardControlApi, guardLoopbackHost } from './controlGuard';
import { registerControlRoutes } from './controlRoutes';
import { registerFacilityRoutes } from './facilityRoutes';
import { registerImageRoutes } from './imageRoutes';
import { photosDrawing, seedPhotos, type DrawPhoto } from './seedPhotos';
import { registerInvRateRoutes } from './invRateRoutes';
import { registerMessagingRoutes } from './messagingRoutes';
import { registerNotificationRoutes } from './notificationRoutes';
import { DEFAULT_EMULATOR_OPTIONS, type EmulatorOptions } from './options';
import { registerPaymentPage } from './paymentPage';
import { registerPaymentRoutes } from './paymentRoutes';
import { registerPropertyRoutes } from './propertyRoutes';
import { openStateFile, type StateFile } from './persistence';
import { installBodyParsers, installErrorEnvelopes, installRequestLog } from './requestLog';
import { createEmulatorState, type EmulatorState } from './state';
import { fetchImage } from './imageFetch';

/** A running emulator. `mainUrl` is the main service's base URL, `tokenUrl` the payment-token host's. */
export interface RunningEmulator {
  mainUrl: string;
  tokenUrl: string;
  /** The control API's base (not part of Su). */
  controlUrl: string;
  /** What the control API requires as `Authorization: Bearer …`. */
  controlToken: string;
  state: EmulatorState;
  close(): Promise<void>;
}

/** Path prefixes under which the two hosts live on one loopback port. */
export const MAIN_PREFIX = '/SUAPI';
export const TOKEN_PREFIX = '/token';

/** Addresses that only this computer reaches: there the emulator answers only requests addressed to them. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/**
 * Builds the emulator's Fastify app (not listening): Su paths under the two prefixes, control API beside them. With
 * `loopbackOnly` (the emulator listens on a loopback address), every request must name that address as its Host.
 */
export function buildEmulatorApp(
  state: EmulatorState,
  controlToken: string,
  options: { loopbackOnly?: boolean } = {},
): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  // One request per connection: an emulator started again on the same port (the demo's, in the same process) must
  // never leave a client a kept-alive socket of the run before, which fails the next request sent on it.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('connection', 'close');
  });
  if (options.loopbackOnly) guardLoopbackHost(app);
  installBodyParsers(app);
  installErrorEnvelopes(app);
  installRequestLog(app, state);
  void app.register(
    async (main) => {
      registerAuthRoutes(main, state);
      registerFacilityRoutes(main, state);
      registerPropertyRoutes(main, state);
      registerMessagingRoutes(main, state);
      registerImageRoutes(main, state);
      registerNotificationRoutes(main, state);
      registerInvRateRoutes(main, state);
    },
    { prefix: MAIN_PREFIX },
  );
  void app.register(
    async (token) => {
      registerPaymentRoutes(token, state);
      registerPaymentPage(token, state);
    },
    { prefix: TOKEN_PREFIX },
  );
  void app.register(
    async (control) => {
      guardControlApi(control, controlToken);
      registerControlRoutes(control, state);
    },
    { prefix: '/_emulator' },
  );
  return app;
}

/**
 * With a state file: what it holds is restored into `state` (an image fetch cut short is made again), and from now on
 * every change is written there: after each request (before its answer goes out; one that changed nothing writes
 * nothing), and
 * when a change happens outside a request (`state.changed`).
 */
function keepState(state: EmulatorState, file: StateFile, app: FastifyInstance): boolean {
  const restored = file.restore(state);
  const save = () => {
    try {
      file.save(state);
    } catch (error) {
      console.error(`emulator: the state could not be written to ${state.options.stateFile}: ${String(error)}`);
    }
  };
  state.changed = save;
  // GETs too: a token is issued by one. A request that changed nothing writes nothing (save compares first).
  app.addHook('onSend', async (_request, _reply, payload) => {
    save();
    return payload;
  });
  if (restored)
    for (const image of [...state.images.values()].flat())
      if (!image.fetch || image.fetch.state === 'pending') void fetchImage(image, state.now).then(save);
  return restored;
}

/**
 * Starts the emulator on 127.0.0.1 (port 0 picks a free one). A port that is taken fails the start (`EADDRINUSE`),
 * with nothing left open.
 */
export async function startEmulator(
  options: Partial<EmulatorOptions> = {},
  listen: { port?: number; host?: string } = {},
  /** How the seeded photos are drawn (default: with sharp in this process). */
  drawPhoto?: DrawPhoto,
): Promise<RunningEmulator> {
  const state = createEmulatorState({ ...DEFAULT_EMULATOR_OPTIONS, ...options });
  const pageBase = state.options.paymentPageBase;
  if (pageBase !== '' && !/^https?:\/\/[^/\s]+(\/\S*)?$/.test(pageBase))
    throw new Error(`paymentPageBase must be an http or https address (was "${pageBase}").`);
  const controlToken = state.options.controlToken || randomBytes(24).toString('base64url');
  const host = listen.host ?? '127.0.0.1';
  const app = buildEmulatorApp(state, controlToken, { loopbackOnly: LOOPBACK_HOSTS.includes(host) });
  const file = state.options.stateFile ? openStateFile(state.options.stateFile) : null;
  try {
    const restored = file ? keepState(state, file, app) : false;
    if (state.options.seedPhotos) seedPhotos(state, restored, drawPhoto);
    // A new state file holds the seeded world from the start.
    if (file && !restored) file.save(state);
    await app.listen({ port: listen.port ?? 0, host });
  } catch (error) {
    await app.close();
    file?.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const base = `http://${host}:${port}`;
  // The seeded photos are drawn when something first reads their bytes (the Photos tab, the control API), not at
  // start: drawing loads sharp, libvips and its fonts into the process, which then hold about 100 MiB for as long as it
  // runs (bench/RESULTS.md, "The core at rest"); an owner who never opens Photos never pays for them.
  return {
    mainUrl: `${base}${MAIN_PREFIX}`,
    tokenUrl: `${base}${TOKEN_PREFIX}`,
    // The control API answers only at a loopback address, whatever address the Su paths listen on.
    controlUrl: `http://127.0.0.1:${port}/_emulator`,
    controlToken,
    state,
    close: async () => {
      await app.close();
      await photosDrawing(state);
      if (file) {
        state.changed();
        state.changed = () => undefined;
        file.close();
      }
    },
  };
}
