import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import type { EmulatorOptions } from '../../src/emulator/options';
import { startApp, type RunningApp } from './app';

// Deliveries as Su sends them, posted straight to the app's listener (the in-process demo emulator cannot be
// reached from here): the provider's own fixture bodies with fresh ids, and 19/9 messages built field by field.

const fixtureDir = join(import.meta.dirname, '..', 'fixtures', 'su');
const fixture = (name: string) => JSON.parse(readFileSync(join(fixtureDir, name), 'utf8')) as Record<string, unknown>;

let counter = 0;
/** A response deadline 20 days from now (legacy reviews past theirs cannot be answered). */
export const REVIEW_EXPIRES = new Date(Date.now() + 20 * 86_400_000).toISOString();

/** A new provider id each call (digits, as the channels send them). */
export const freshId = () => `${Date.now()}${String(counter++).padStart(4, '0')}`;

/** The Airbnb fixture (Chris, Modern housewith Parking, 7–11 Jul 2021) as a new message of the same thread. */
export function airbnbMessage(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...fixture('push-message-244.json'), messageid: freshId(), ...overrides };
}

/**
 * A Booking.com (19) or Expedia (9) message as Su pushes it: no user or booking details; the booking id is what
 * keeps the conversation together.
 */
export function channelMessage(
  channel: '19' | '9',
  bookingid: string,
  message: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    message,
    guestid: `g-${bookingid}`,
    bookingid,
    listingid: channel === '19' ? '7741203' : '55120934',
    bookingflag: 'B',
    messageid: freshId(),
    channel_id: channel,
    threadid: bookingid,
    attachment: [],
    hotelid: 'IK-DEMO-001',
    ...overrides,
  };
}

/** The Booking.com review fixture with a new review id. */
export function currentReview(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...fixture('push-review-19.json'), channel_review_id: `19_${freshId()}`, ...overrides };
}

/** A legacy Airbnb review: message-style fields plus the `review` object. */
export function legacyReview(review: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    message: '',
    guestid: '311357532',
    bookingid: 'HMREVIEW01',
    listingid: '47522522',
    bookingflag: 'B',
    messageid: freshId(),
    channel_id: '244',
    threadid: '991462399',
    user_details: {
      roles: [
        { role: 'owner', user_ids: [22533556] },
        { role: 'guest', user_ids: [311357532] },
      ],
      users: [
        { id: 22533556, first_name: 'Joseph', location: 'Cambridge, United Kingdom', preferred_locale: 'en-GB' },
        { id: 311357532, first_name: 'Maria', location: 'Porto, Portugal', preferred_locale: 'pt' },
      ],
    },
    booking_details: {},
    attachment: [],
    hotelcode: 'abc123',
    review: {
      action: 'review_published',
      reviewid: freshId(),
      reviewerid: '311357532',
      reviewer_role: 'guest',
      revieweeid: '22533556',
      reviewee_role: 'host',
      listing_id: '47522522',
      public_review: 'A bright, quiet house with everything we needed. Joseph was quick to answer.',
      private_feedback: 'The hallway light by the stairs is broken.',
      hidden: false,
      submitted: true,
      submitted_at: '2025-03-02T09:30:00Z',
      // Airbnb gives hosts 30 days to respond: keep this review answerable whenever the tests run.
      expires_at: REVIEW_EXPIRES,
      booking_id: 'HMREVIEW01',
      ratings: [
        { category: 'overall', rating: 5 },
        { category: 'cleanliness', rating: 4 },
        { category: 'communication', rating: 5 },
      ],
      ...review,
    },
  };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running app whose listener the test knows: where it is and its Basic credentials. */
export interface PushableApp extends RunningApp {
  /** The listener's address and credentials, as Su (or a test emulator) would be told them. */
  partner: { url: string; username: string; password: string };
  /** Posts one push as Su would; resolves with the listener's answer. */
  push(body: unknown): Promise<{ status: number; body: string }>;
}

/** The listener's address, from the line the app prints after its URL ("Receiving messages and reviews at …"). */
async function listenerUrl(app: RunningApp): Promise<string> {
  for (let waited = 0; waited < 5_000; waited += 25) {
    const match = /Receiving messages and reviews at (http:\/\/127\.0\.0\.1:\d+\/push)/.exec(app.output());
    if (match) return match[1]!;
    if (/Not receiving: .*/.test(app.output())) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the app did not say where it receives:\n${app.output()}`);
}

/** Starts an app with a listener; given `previous`, the same app again (same data and listener). */
export async function startPushableApp(previous?: PushableApp): Promise<PushableApp> {
  const port = previous ? Number(new URL(previous.partner.url).port) : await freePort();
  const username = previous?.partner.username ?? 'e2e-partner';
  const password = previous?.partner.password ?? randomBytes(18).toString('base64url');
  const app = await startApp(
    {
      INNKEEPER_PUSH_PORT: String(port),
      INNKEEPER_PUSH_USER: username,
      INNKEEPER_PUSH_PASSWORD: password,
    },
    previous?.dataDir,
  );
  // Where the app says it listens: a port that was free a moment ago may have been taken by another test's app
  // since (the demo's listener then moves to a free one and says so), and a post to the old one reaches a stranger.
  const url = await listenerUrl(app);
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  return {
    ...app,
    partner: { url, username, password },
    async push(body) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.text() };
    },
  };
}

/**
 * A Su emulator of the test's own (the app's built-in demo one lives inside the app and cannot be stopped):
 * stopped and started again on the same port, so the app's connection settings stay right.
 */
export async function startTestEmulator(options: Partial<EmulatorOptions> = {}) {
  const port = await freePort();
  let emulator: RunningEmulator | null = await startEmulator(options, { port });
  const control = () => createEmulatorControl(emulator!);
  return {
    port,
    control,
    async stop() {
      await emulator?.close();
      emulator = null;
    },
    /** A new emulator on the same port: the same addresses, a fresh state and request log. */
    async start() {
      emulator = await startEmulator(options, { port });
    },
    /** The bodies of the requests the running emulator received at a path ending in `path`. */
    sent: async (path: string) =>
      (await control().requests()).filter((r) => r.path.endsWith(path)).map((r) => r.body as Record<string, unknown>),
  };
}
export type TestEmulator = Awaited<ReturnType<typeof startTestEmulator>>;
