import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aChannel, channelName } from '../../shared/channels';
import type { DemoDelivery, DemoDeliveryResult, DemoStatus } from '../../shared/demo';
import type { PartnerEntry } from '../../shared/payments';
import type { PropertySetupInput } from '../../shared/rateSetups';
import { AppFailure, ErrorCode, errorText } from '../../shared/result';
import { createEmulatorControl } from '../../emulator/controlClient';
import { startEmulator, type RunningEmulator } from '../../emulator/emulator';
import { PROPERTY_FIELD } from '../../emulator/pushBodies';
import type { PushOutcome } from '../../emulator/pushDelivery';
import { seedPartners, seedProperties } from '../../emulator/seed';
import { drawWithSharp, type DrawPhoto } from '../../emulator/seedPhotos';
import type { Settings } from '../config/settings';
import type { DemoUrls } from '../connection/profiles';
import { createDemoMailbox } from './demoMailbox';
import { demoNotice } from './demoNotices';
import { demoPropertyContent } from './demoProperty';
import type { DeliveryCredentials } from '../../receiving/basicAuth';

// The built-in demo provider: the Su emulator, run inside Innkeeper while the demo is the active provider. This is
// the only module of the app that imports the emulator.

export interface DemoProviderOptions {
  settings: Settings;
  /** Where the running demo's addresses and control token are written for developers (null: nowhere). */
  infoFile: string | null;
  /** Time between everyday guest messages, [shortest, longest] in ms; null: none, whatever the setting says. */
  everydayEveryMs: [number, number] | null;
  /** The folder of the demo's own mailbox (emptied at each start); null: no mailbox, deliveries go to the listener. */
  mailboxDir?: string | null;
  /** "Close the laptop for an hour" opens again by itself after this long (default two minutes). */
  laptopReopensAfterMs?: number;
  /** Where the demo's Su keeps what it holds between runs (in the data folder); null: in memory, new at each start. */
  stateFile?: string | null;
  /**
   * The demo's Su came back at another address than before (its port was taken): the addresses stored with the
   * earlier ones (`from`, origins such as http://127.0.0.1:4123) are now at `to`.
   */
  moved?: (from: string[], to: string) => void;
}

export { LAPTOP_REOPENS_AFTER_MS, type DemoMailboxCollector } from './demoMailbox';

const LIVE_KEY = 'demo.liveMessages';
/** The port the demo's Su listened on last, and every address it had (so that links made with one keep working). */
const PORT_KEY = 'demo.port';
const ORIGINS_KEY = 'demo.origins';
/** Everyday messages by default: one every three to seven minutes. */
export const EVERYDAY_EVERY_MS: [number, number] = [3 * 60_000, 7 * 60_000];

const notRunning = () =>
  new AppFailure({
    code: ErrorCode.NotConfigured,
    message: 'The demo provider is not in use: choose it on the Connection screen first.',
    retryable: false,
  });

/** What arrived, in the owner's words. */
function summary(outcome: PushOutcome, propertyName: string): string {
  const channel = channelName(outcome.channel);
  if (!outcome.acknowledged) {
    const why = outcome.attempts.at(-1)?.error ?? 'no answer';
    return `The ${channel} delivery did not arrive: the listener answered “${why}”.`;
  }
  if (outcome.kind !== 'message') {
    const review = `${aChannel(outcome.channel)} review of ${propertyName} arrived.`;
    return review[0]!.toUpperCase() + review.slice(1);
  }
  const users = (outcome.body.user_details as { users?: { first_name?: string }[] } | undefined)?.users;
  const guest = users?.at(-1)?.first_name;
  return `${guest ? `${guest}’s` : 'A guest’s'} message about ${propertyName} arrived on ${channel}.`;
}

/**
 * The demo provider. It runs only while started (the demo is the active provider); it never sees the owner's
 * credentials: its deliveries carry credentials of its own, made for this run and accepted by the listener only
 * while it runs. Its control API takes a per-run token (written to `infoFile` for developers).
 */
export function createDemoProvider(options: DemoProviderOptions) {
  const credentials: DeliveryCredentials = {
    username: 'innkeeper-demo',
    password: randomBytes(24).toString('base64url'),
    source: 'demo',
  };
  let emulator: RunningEmulator | null = null;
  let listenerUrl: string | null = null;
  let everyday: ReturnType<typeof setTimeout> | null = null;
  let startError: string | null = null;
  /** Set the moment the owner leaves the demo: its deliveries stop at once, before it has finished stopping. */
  let revoked = false;
  const listeners = new Set<(status: DemoStatus) => void>();
  const properties = seedProperties().filter((p) => p.active);
  const connect = () => {
    if (!emulator) return;
    const { username, password } = credentials;
    const mailbox = demoMailbox.running();
    const url = mailbox ? `${mailbox.url}/push` : listenerUrl;
    emulator.state.partnerEndpoint = url && !revoked ? { url, username, password } : null;
  };
  const control = () => {
    if (!emulator) throw notRunning();
    return createEmulatorControl(emulator);
  };
  const demoMailbox = createDemoMailbox({
    mailboxDir: options.mailboxDir,
    laptopReopensAfterMs: options.laptopReopensAfterMs,
    credentials,
    running: () => emulator !== null && !revoked,
    control,
    firstHotelId: () => properties[0]!.hotelid,
    connect,
    changed: () => changed(),
  });
  const liveMessages = () => options.settings.get<boolean>(LIVE_KEY) ?? true;

  const status = (): DemoStatus => ({
    running: emulator !== null,
    mainUrl: emulator?.mainUrl ?? null,
    liveMessages: liveMessages(),
    properties: emulator ? properties.map((p) => ({ hotelId: p.hotelid, name: p.name })) : [],
    error: startError,
    mailboxUrl: demoMailbox.running()?.url ?? null,
    laptopClosedAt: demoMailbox.laptopClosedAt(),
    laptopNote: demoMailbox.laptopNote(),
  });
  const changed = () => {
    const current = status();
    for (const listener of listeners) listener(current);
  };

  /** The next everyday message, at a random moment within the range, while the demo runs and they are wanted. */
  const scheduleEveryday = () => {
    if (everyday) clearTimeout(everyday);
    everyday = null;
    const range = options.everydayEveryMs;
    if (!emulator || revoked || !range || !liveMessages()) return;
    const [shortest, longest] = range;
    everyday = setTimeout(
      () => {
        everyday = null;
        if (!emulator || !listenerUrl) return scheduleEveryday();
        control()
          .everydayMessage()
          .catch((error: unknown) => console.error(`demo: an everyday message failed: ${errorText(error)}`))
          .finally(scheduleEveryday);
      },
      shortest + Math.random() * (longest - shortest),
    );
    everyday.unref();
  };

  /** A new Airbnb notice on the property's first Airbnb account, from a rotating set of what hosts meet. */
  let noticeTurn = 0;
  const addNotice = async (hotelId: string): Promise<DemoDeliveryResult> => {
    const property = properties.find((p) => p.hotelid === hotelId);
    const account = property?.channel244Accounts.find((a) => !a.failure);
    if (!property || !account)
      return { acknowledged: false, summary: 'This demo property has no Airbnb account to receive a notice.' };
    const notification = demoNotice(noticeTurn++, property.name, property.channels['244'] ?? '');
    await control().notifications({ hotelid: hotelId, account: account.accountId, notification });
    return { acknowledged: true, summary: `An Airbnb notice for ${property.name}: “${notification.title}”.` };
  };

  /** The guest pays on the demo host's payment page (the app then asks the host, as it would for a real one). */
  const payTransaction = async (transactionId: string): Promise<DemoDeliveryResult> => {
    const t = emulator?.state.transactions.get(transactionId);
    if (!t) return { acknowledged: false, summary: `The demo payment host has no transaction ${transactionId}.` };
    const { status } = await control().completeTransaction(transactionId);
    // A card link is paid; a widget takes the guest's card details for a booking (nothing is paid yet).
    const done =
      t.kind === 'paycard'
        ? `The guest paid ${t.amount} ${t.currency} (order ${t.order_id ?? ''}).`
        : `The guest entered their card details for booking ${t.booking_id ?? ''}.`;
    return status === 'Success'
      ? { acknowledged: true, summary: done }
      : { acknowledged: false, summary: `This payment cannot be paid any more: it is ${status.toLowerCase()}.` };
  };

  // Su's first photos: drawn by the image reader once attached (no sharp in the core); without it, or refused, by sharp.
  let photoDrawer: DrawPhoto | null = null;
  const drawPhoto: DrawPhoto = (svg) =>
    photoDrawer ? photoDrawer(svg).catch(() => drawWithSharp(svg)) : drawWithSharp(svg);
  /**
   * The demo's Su, with what it held when it last ran, on the port it had (a link or address made then still
   * answers); on another free one only when that port is taken now, and then what the app stored with the earlier
   * addresses is moved to the new one (`moved`).
   */
  const startOnKnownPort = async (): Promise<RunningEmulator> => {
    // A demo payment completes by itself after three minutes (or at once from the demo controls or its pay page).
    const emulatorOptions = {
      seedPhotos: true,
      paymentCompleteSeconds: 180,
      ...(options.stateFile ? { stateFile: options.stateFile } : {}),
    };
    const known = options.settings.get<number>(PORT_KEY);
    let running: RunningEmulator;
    try {
      running = await startEmulator(emulatorOptions, { port: known ?? 0 }, drawPhoto);
    } catch (error) {
      if (!known || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      running = await startEmulator(emulatorOptions, { port: 0 }, drawPhoto);
    }
    const origin = new URL(running.mainUrl).origin;
    const earlier = (options.settings.get<string[]>(ORIGINS_KEY) ?? []).filter((o) => o !== origin);
    options.settings.set(PORT_KEY, Number(new URL(origin).port));
    options.settings.set(ORIGINS_KEY, [...earlier.slice(-19), origin]);
    if (earlier.length) options.moved?.(earlier, origin);
    return running;
  };

  /** Writes (or, once stopped, removes) the developers' file; a failure is logged, never in the demo's way. */
  const writeInfo = () => {
    try {
      writeInfoFile();
    } catch (error) {
      console.error(`demo: ${options.infoFile}: ${errorText(error)}`);
    }
  };
  const writeInfoFile = () => {
    if (!options.infoFile) return;
    if (!emulator) return rmSync(options.infoFile, { force: true });
    const { mainUrl, tokenUrl, controlUrl, controlToken } = emulator;
    // SECURITY: the control token can post into the inbox; the file is readable by the owner only. It is always
    // made new (`wx`): a mode given to writeFileSync applies only to a file it creates.
    const text = `${JSON.stringify({ mainUrl, tokenUrl, controlUrl, controlToken }, null, 2)}\n`;
    rmSync(options.infoFile, { force: true });
    writeFileSync(options.infoFile, text, { mode: 0o600, flag: 'wx' });
  };

  return {
    drawPhotosWith: (draw: DrawPhoto) => void (photoDrawer = draw),
    /** Where the demo provider listens, while it runs. */
    urls: (): DemoUrls | null => (emulator ? { mainBaseUrl: emulator.mainUrl, tokenBaseUrl: emulator.tokenUrl } : null),
    /** The listener's side: the demo's own credentials while it runs, and where the listener is. */
    intake: {
      // Not while its deliveries go to its own mailbox: then the listener has nothing of the demo to accept.
      credentials: (): DeliveryCredentials | null =>
        emulator && !revoked && !demoMailbox.running() ? credentials : null,
      listening(url: string | null): void {
        listenerUrl = url;
        connect();
      },
    },
    /** The running emulator (for tests), or null. */
    emulator: () => emulator,
    /** The demo's own mailbox (inside Innkeeper, on 127.0.0.1), which Su's stand-in delivers to while it runs. */
    mailbox: {
      attach: demoMailbox.attach,
      running: demoMailbox.running,
      start: demoMailbox.start,
    },
    status,
    onChange(listener: (status: DemoStatus) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * The owner is leaving the demo: from this moment its deliveries are refused at the listener and it makes no new
     * ones (a sample inbox on its way stops), even before `stop` has closed it.
     */
    revoke(): void {
      revoked = true;
      connect();
      scheduleEveryday();
      demoMailbox.open();
    },

    /** Starts the emulator on a free loopback port (nothing happens when it runs already). */
    async start(): Promise<void> {
      revoked = false;
      if (emulator) return connect();
      try {
        emulator = await startOnKnownPort();
        startError = null;
      } catch (error) {
        startError = `The demo provider could not start: ${errorText(error)}`;
        changed();
        throw error;
      }
      connect();
      scheduleEveryday();
      changed();
      writeInfo();
    },
    /** Stops the emulator and frees its port; its credentials stop working at the listener. */
    async stop(): Promise<void> {
      revoked = true;
      startError = null;
      const stopping = emulator;
      emulator = null;
      scheduleEveryday();
      try {
        await demoMailbox.stop();
        await stopping?.close();
      } finally {
        revoked = false;
        changed();
        writeInfo();
      }
    },

    /** Delivers a message or a review through the listener; answers once the listener acknowledged it. */
    async deliver(delivery: DemoDelivery): Promise<DemoDeliveryResult> {
      if (delivery.kind === 'payment') return payTransaction(delivery.transactionId);
      if (!listenerUrl) {
        throw new AppFailure({
          code: ErrorCode.NotConfigured,
          message: 'The listener is not running, so nothing can arrive: check it on the Connection screen.',
          retryable: true,
        });
      }
      if (delivery.kind === 'notice') return addNotice(delivery.hotelId);
      const channel = delivery.kind === 'legacy-review' ? '244' : delivery.channel;
      const outcome = await control().push({
        kind: delivery.kind,
        channel,
        [PROPERTY_FIELD[delivery.kind]]: delivery.hotelId,
      });
      const name = properties.find((p) => p.hotelid === delivery.hotelId)?.name ?? delivery.hotelId;
      // Through the demo's mailbox: answered once this computer filed it (unless the laptop is closed).
      if (outcome.acknowledged) await demoMailbox.collected();
      const waits = outcome.acknowledged && demoMailbox.waiting();
      return {
        acknowledged: outcome.acknowledged,
        summary: waits
          ? `${summary(outcome, name).replace(/ arrived(?= on|\.)/, ' reached your mailbox')} It comes in when the laptop is open again.`
          : summary(outcome, name),
      };
    },

    /**
     * "Close the laptop for an hour" (`open` false) and opening it again (demoMailbox.ts); answers the demo's status.
     */
    async laptop(open: boolean): Promise<DemoStatus> {
      await demoMailbox.laptop(open);
      return status();
    },
    /** The sample inbox: conversations and reviews of every kind, delivery by delivery through the listener. */
    deliverSample: () => control().sampleInbox(),

    /** Whether an everyday guest message arrives now and then (kept as a setting). */
    setLiveMessages(enabled: boolean): DemoStatus {
      options.settings.set(LIVE_KEY, enabled);
      scheduleEveryday();
      changed();
      return status();
    },

    /** The demo's property records, Booking.com ids and facilities, as the owner would enter them. */
    propertyContent: () => demoPropertyContent(properties),

    /** The demo host's payment accounts of the demo properties, as an owner would enter them by partner id. */
    paymentAccounts: (): PartnerEntry[] =>
      seedPartners().flatMap((partner) => {
        const property = properties.find((p) => p.name === partner.partner_name);
        return property && partner.status.toLowerCase() === 'active'
          ? [
              {
                hotelId: property.hotelid,
                partner_id: partner.partner_id,
                currency_code: partner.currency_code,
                partner_name: partner.partner_name,
              },
            ]
          : [];
      }),

    /** The demo's rooms and rate plans, as the owner would enter them on the Rates screen. */
    rateSetups: (): PropertySetupInput[] =>
      properties.map((p) => ({
        hotelId: p.hotelid,
        name: p.name,
        currency: p.currency,
        channels: Object.keys(p.channels).sort((a, b) => Number(b) - Number(a)),
        rooms: p.rooms.map((room) => ({
          id: room.roomid,
          name: room.name,
          inventory: room.baseInventory,
          // The emulator charges its weekend rate on Friday and Saturday nights (Monday first, as the setup keeps it).
          rates: room.ratePlans.map((plan) => ({
            id: plan.rateid,
            name: plan.name,
            price: plan.baseRate,
            weekPrices: [null, null, null, null, plan.weekendRate, plan.weekendRate, null],
          })),
        })),
      })),
  };
}

export type DemoProvider = ReturnType<typeof createDemoProvider>;

/** Where the running demo's addresses and control token are written, in the data folder. */
export const demoInfoFile = (dataDir: string) => join(dataDir, 'demo-provider.json');

/** Where the demo's Su keeps what it holds (photos and their bytes, payments, rates, property…), in the data folder. */
export const demoStateFile = (dataDir: string) => join(dataDir, 'demo-provider.sqlite');
