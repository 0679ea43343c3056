import { hostname } from 'node:os';
import type { MailboxHealth } from '../../receiving/mailboxProtocol';
import { generateDeviceKeyPair } from '../../receiving/sealing';
import type { MailboxStatus } from '../../shared/mailbox';
import { AppFailure, ErrorCode, errorText } from '../../shared/result';
import type { Secrets } from '../config/secrets';
import type { Settings } from '../config/settings';
import type { Database } from '../db/database';
import type { DeliveryCredentials } from '../../receiving/basicAuth';
import type { GroupOutcome } from '../intake/ingest';
import { startCollector, type Collected, type Collector } from './collector';
import { catchUpRecord } from './catchUpRecord';
import { environmentPairing, type MailboxEnvironment } from './environmentPairing';
import { MailboxRefusal, mailboxClient } from './mailboxClient';
import { deviceFailure, pairingFailure } from './pairingWords';

/** SECURITY: the device's private key and its credential at the mailbox live in the secrets, nowhere else. */
export const PRIVATE_KEY_SECRET = 'mailbox.privateKey';
export const TOKEN_SECRET = 'mailbox.token';
const URL_KEY = 'mailbox.url';
const DEVICE_KEY = 'mailbox.deviceId';
const MAILBOX_ID_KEY = 'mailbox.mailboxId';
const PAIRED_AT_KEY = 'mailbox.pairedAt';
/** Set while the pairing is the built-in demo's own mailbox (it lives only as long as the run that made it). */
const DEMO_KEY = 'mailbox.demo';
/** How often the mailbox's health is read while connected. */
const HEALTH_EVERY_MS = 60_000;
/** The mailbox's up periods kept for the screen. */
const UP_PERIODS = 20;

export type { MailboxEnvironment } from './environmentPairing';

export interface MailboxServiceDeps {
  database: Database;
  settings: Settings;
  secrets: Secrets;
  now: () => number;
  env: MailboxEnvironment;
  /** The credentials Su delivers with, given to the mailbox at pairing (the intake's). */
  pushCredentials(): DeliveryCredentials | null;
  /** Files collected deliveries through the intake, `alsoWrite` in the same transaction (the intake's). */
  fileCollected(
    deliveries: readonly { raw: Uint8Array; receivedAt: number }[],
    alsoWrite: (db: Database['db'], outcomes: readonly GroupOutcome[]) => void,
    source: 'demo' | null,
  ): Promise<readonly GroupOutcome[]>;
  /** Every change of the status (the feature announces it as `mailbox.changed`). */
  onChange(): void;
  /** This computer's name at the mailbox. */
  deviceName?: string;
}

/**
 * This computer's side of the mailbox: pairing (a key pair made here, the public half and Su's credentials given
 * to the mailbox, a device credential back), collecting while paired (`collector.ts`), the mailbox's health, and
 * what arrived while this computer was off.
 */
export function createMailboxService(deps: MailboxServiceDeps) {
  const { settings, secrets, database } = deps;
  let collector: Collector | null = null;
  let connected = false;
  let unreachableSince: number | null = null;
  let lastError: MailboxStatus['lastError'] = null;
  let lastCollectedAt: number | null = null;
  let health: { at: number; value: MailboxHealth } | null = null;
  let healthTimer: NodeJS.Timeout | null = null;
  /** Pairing, unpairing and stopping one at a time. */
  let busy: Promise<unknown> = Promise.resolve();
  let stopped = false;
  /** Collecting paused on purpose (the demo's "Close the laptop for an hour"). */
  let paused = false;

  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = busy.then(work, work);
    busy = next.catch(() => undefined);
    return next;
  };
  const problem = (message: string | null) => {
    lastError = message === null ? null : { message, at: deps.now() };
  };

  const pairing = () => {
    const url = settings.get<string>(URL_KEY);
    const deviceId = settings.get<string>(DEVICE_KEY);
    const token = secrets.get(TOKEN_SECRET);
    const privateKey = secrets.get(PRIVATE_KEY_SECRET);
    return url && deviceId && token && privateKey ? { url, deviceId, token, privateKey } : null;
  };
  const { whileOff, saveWhileOff, saveCatching, catching, position } = catchUpRecord(database, deps.now);

  async function readHealth(signal?: AbortSignal): Promise<void> {
    const paired = pairing();
    if (!paired) return;
    try {
      health = { at: deps.now(), value: await mailboxClient(paired.url, paired.token).health(signal) };
      deps.onChange();
    } catch {
      // The collector says when the mailbox cannot be reached; the health read again next time.
    }
  }

  function startCollecting(): void {
    const paired = pairing();
    if (!paired || collector || stopped || paused) return;
    // The demo's own deliveries are filed as the demo's (a reply to them goes to the demo, whatever is in use later).
    const source = settings.get<boolean>(DEMO_KEY) ? 'demo' : null;
    collector = startCollector({
      client: mailboxClient(paired.url, paired.token),
      privateKey: paired.privateKey,
      position,
      catching,
      file: (deliveries, upTo) =>
        deps.fileCollected(
          deliveries,
          (db, outcomes) => {
            const { position: seq, catchUp } = upTo(outcomes);
            db.prepare('UPDATE mailbox_position SET position = ? WHERE id = 1 AND position < ?').run(seq, seq);
            // Catching up: what it filed so far, or (its last group) what it brought, kept in the same commit.
            if (catchUp?.done) saveWhileOff(db, catchUp.total);
            else if (catchUp) saveCatching(db, catchUp.total);
          },
          source,
        ),
      skipTo: (seq) =>
        database.transaction(() =>
          database.db.prepare('UPDATE mailbox_position SET position = ? WHERE id = 1 AND position < ?').run(seq, seq),
        ),
      events: {
        connected(now) {
          connected = now;
          if (now) unreachableSince = null;
          else unreachableSince ??= deps.now();
          if (!now && healthTimer) clearInterval(healthTimer);
          deps.onChange();
        },
        problem(message, unreachable) {
          if (unreachable) unreachableSince ??= deps.now();
          problem(message);
          deps.onChange();
        },
        filed(collected: Collected) {
          if (collected.messages + collected.reviews + collected.quarantined === 0) return;
          lastCollectedAt = deps.now();
          deps.onChange();
        },
        caughtUp(collected, saved) {
          // Not saved yet when its last group had nothing left to file (an empty last page, or boxes not opened).
          if (!saved) database.transaction(() => saveWhileOff(database.db, collected));
          deps.onChange();
        },
        live(signal) {
          void readHealth(signal);
          if (healthTimer) clearInterval(healthTimer);
          healthTimer = setInterval(() => void readHealth(signal), HEALTH_EVERY_MS);
        },
        revoked() {
          // Unpaired at the mailbox (from another computer, or the mailbox was set up again): nothing to collect.
          serially(async () => {
            await stopCollecting();
            if (stopped) return;
            forget();
            problem(
              'The mailbox no longer accepts this computer: it was unpaired there, or the mailbox was set up again. Pair again with a new code to receive through it.',
            );
            deps.onChange();
          }).catch((error: unknown) => console.error(`mailbox: ${errorText(error)}`));
        },
      },
    });
  }

  async function stopCollecting(): Promise<void> {
    const running = collector;
    collector = null;
    if (healthTimer) clearInterval(healthTimer);
    healthTimer = null;
    await running?.stop();
    // Stopped on purpose: not "unreachable".
    connected = false;
    unreachableSince = null;
  }

  /** Forgets the pairing here: the key, the credential, the position (what is filed stays filed). */
  function forget(): void {
    secrets.delete(TOKEN_SECRET);
    secrets.delete(PRIVATE_KEY_SECRET);
    // The demo's mailbox address is of no use to fill the form again (its port changes each run).
    if (settings.get<boolean>(DEMO_KEY)) settings.delete(URL_KEY);
    for (const key of [DEVICE_KEY, MAILBOX_ID_KEY, PAIRED_AT_KEY, DEMO_KEY]) settings.delete(key);
    paused = false;
    database.transaction(() => database.db.prepare('DELETE FROM mailbox_position').run());
    connected = false;
    unreachableSince = null;
    health = null;
  }

  /** `demo`: the built-in demo's own mailbox, given the demo's own credentials for its deliveries. */
  async function pairNow(url: string, code: string, demo?: { credentials: DeliveryCredentials }): Promise<void> {
    const credentials = demo?.credentials ?? deps.pushCredentials();
    if (!credentials)
      throw new AppFailure({
        code: ErrorCode.NotConfigured,
        message:
          'Choose the password Su will use first (Receiving, on this screen): the mailbox accepts Su’s deliveries with it.',
        retryable: false,
      });
    const keys = generateDeviceKeyPair();
    let answer;
    try {
      answer = await mailboxClient(url).pair({
        code,
        name: (deps.deviceName ?? hostname()).slice(0, 80) || 'Innkeeper',
        publicKey: keys.publicKey,
        pushUser: credentials.username,
        pushPassword: credentials.password,
      });
    } catch (error) {
      throw pairingFailure(error, url);
    }
    // Paired: an earlier pairing (another mailbox, or this one as another device) is let go, there and here.
    const earlier = pairing();
    await stopCollecting();
    if (earlier)
      await mailboxClient(earlier.url, earlier.token)
        .unpair(earlier.deviceId)
        .catch(() => undefined);
    secrets.set(PRIVATE_KEY_SECRET, keys.privateKey);
    secrets.set(TOKEN_SECRET, answer.token);
    settings.set(URL_KEY, url);
    settings.set(DEVICE_KEY, answer.deviceId);
    settings.set(MAILBOX_ID_KEY, answer.mailboxId);
    settings.set(PAIRED_AT_KEY, deps.now());
    if (demo) settings.set(DEMO_KEY, true);
    else settings.delete(DEMO_KEY);
    paused = false;
    database.transaction(() =>
      database.db
        .prepare('INSERT OR REPLACE INTO mailbox_position (id, mailbox_id, device_id, position) VALUES (1, ?, ?, 0)')
        .run(answer.mailboxId, answer.deviceId),
    );
    health = null;
    unreachableSince = null;
    problem(null);
    startCollecting();
  }

  const fromEnvironment = environmentPairing({
    env: deps.env,
    settings,
    pairedUrl: () => pairing()?.url ?? null,
    pair: (url, code) => serially(() => pairNow(url, code)),
    problem,
    onChange: deps.onChange,
  });

  return {
    /**
     * Where the photos go for Su to fetch while paired (the photos feature): the mailbox's address and its calls
     * with this computer's credential, or null when not paired.
     */
    media(): {
      url: string;
      put(name: string, bytes: Buffer): Promise<string>;
      remove(name: string): Promise<void>;
    } | null {
      const paired = pairing();
      if (!paired) return null;
      const client = mailboxClient(paired.url, paired.token);
      return { url: paired.url, put: client.putMedia, remove: client.deleteMedia };
    },

    status(): MailboxStatus {
      const paired = pairing();
      const url = paired?.url ?? settings.get<string>(URL_KEY) ?? deps.env.url ?? null;
      const demo = paired !== null && settings.get<boolean>(DEMO_KEY) === true;
      const su = paired && !demo ? deps.pushCredentials() : null;
      const up = health?.value.up.slice(-UP_PERIODS) ?? [];
      return {
        paired: paired !== null,
        url,
        pushUrl: paired ? `${paired.url}/push` : null,
        pushUser: su?.username ?? null,
        deviceId: paired?.deviceId ?? null,
        pairedAt: paired ? (settings.get<number>(PAIRED_AT_KEY) ?? null) : null,
        connected: paired !== null && connected,
        unreachableSince: paired ? unreachableSince : null,
        lastDeliveryAt: health?.value.lastDeliveryAt ?? null,
        lastCollectedAt,
        waiting: health?.value.waiting ?? null,
        up: up.map(({ from, to }) => ({ from, to })),
        checkedAt: health?.at ?? null,
        whileOff: paired ? whileOff() : null,
        lastError,
        demo,
        paused: paired !== null && paused,
        devices: paired ? (health?.value.devices ?? []) : [],
      };
    },
    /** Pairs with the mailbox at `url` (replacing any earlier pairing) and starts collecting. */
    pair: (url: string, code: string) => serially(() => pairNow(url, code)),
    /**
     * Unpairs: the mailbox revokes this computer's credential and drops what it kept for it, and collecting stops.
     * When the mailbox cannot be reached the pairing is forgotten here all the same, and the status says so.
     */
    unpair: () =>
      serially(async () => {
        const paired = pairing();
        await stopCollecting();
        if (!paired) return;
        let told: string | null = null;
        try {
          await mailboxClient(paired.url, paired.token).unpair(paired.deviceId);
        } catch (error) {
          told = errorText(error);
        }
        forget();
        problem(
          told === null
            ? null
            : `Unpaired here, but the mailbox could not be told (${told}): unpair this computer there too, or it keeps its deliveries for it until they expire.`,
        );
      }),
    /**
     * Unpairs ANOTHER device from the mailbox (a computer lost, sold or given away): the mailbox revokes its
     * credential and drops what it kept for it. This computer is unpaired with `unpair`.
     */
    unpairDevice: (deviceId: string) =>
      serially(async () => {
        const paired = pairing();
        if (!paired) throw deviceFailure('Innkeeper is not paired with a mailbox.');
        if (deviceId === paired.deviceId)
          throw deviceFailure('This is this computer: use “Unpair this computer” to unpair it.');
        try {
          await mailboxClient(paired.url, paired.token).removeDevice(deviceId);
        } catch (error) {
          // Already gone there (unpaired from elsewhere): the list is read again below all the same.
          if (!(error instanceof MailboxRefusal && error.status === 404)) throw deviceFailure(error);
        }
        await readHealth();
      }),
    /**
     * The built-in demo's own mailbox (inside Innkeeper, on 127.0.0.1): paired like the owner's, with the demo's
     * credentials, unless the owner paired a mailbox of their own (then false, and nothing changes).
     */
    pairDemo: (url: string, code: string, credentials: DeliveryCredentials) =>
      serially(async () => {
        const paired = pairing();
        if (paired && !settings.get<boolean>(DEMO_KEY)) return false;
        await pairNow(url, code, { credentials });
        return true;
      }),
    /** Lets the demo's mailbox go (the owner left the demo); a mailbox of the owner's own stays paired. */
    unpairDemo: () =>
      serially(async () => {
        const paired = pairing();
        if (!paired || !settings.get<boolean>(DEMO_KEY)) return;
        await stopCollecting();
        await mailboxClient(paired.url, paired.token)
          .unpair(paired.deviceId)
          .catch(() => undefined);
        forget();
        problem(null);
        deps.onChange();
      }),
    /** Stops collecting for a while (the demo's closed laptop): deliveries wait in the mailbox. */
    pause: () =>
      serially(async () => {
        paused = true;
        await stopCollecting();
        deps.onChange();
      }),
    /** Collects again after a pause: first what waited ("… arrived while this computer was off"), then live. */
    resume(): void {
      if (!paused) return;
      paused = false;
      startCollecting();
      deps.onChange();
    },
    /** Starts collecting when paired, and pairs from the environment when asked. */
    start(): void {
      // The demo's mailbox lived in the run that paired it: a new run pairs its own.
      if (settings.get<boolean>(DEMO_KEY) && pairing()) forget();
      startCollecting();
      fromEnvironment.start();
    },
    async stop(): Promise<void> {
      stopped = true;
      fromEnvironment.stop();
      await serially(() => stopCollecting());
    },
    /** The secrets it was handed outside the secret file (the pairing code of INNKEEPER_MAILBOX_CODE). */
    environmentSecrets: (): string[] => (deps.env.code ? [deps.env.code] : []),
  };
}

export type MailboxService = ReturnType<typeof createMailboxService>;
