import { mkdirSync, rmSync } from 'node:fs';
import { AppFailure, ErrorCode, errorText } from '../../shared/result';
import type { EmulatorControl } from '../../emulator/controlClient';
import { PROPERTY_FIELD } from '../../emulator/pushBodies';
import { startMailbox, type RunningMailbox } from '../../mailbox/mailbox';
import type { DeliveryCredentials } from '../../receiving/basicAuth';
import { generateDeviceKeyPair } from '../../receiving/sealing';

/**
 * The app's collecting from a mailbox, as the demo uses it for its own (the mailbox feature attaches it): pairing
 * (false when the owner paired a mailbox of their own), unpairing, and the closed laptop's pause.
 */
export interface DemoMailboxCollector {
  pair(url: string, code: string, credentials: DeliveryCredentials): Promise<boolean>;
  unpair(): Promise<void>;
  pause(): Promise<void>;
  resume(): void;
}

/** "Close the laptop for an hour" opens again by itself after this long, if the owner does not open it first. */
export const LAPTOP_REOPENS_AFTER_MS = 2 * 60_000;
/** How long a demo delivery waits to be collected from the demo's mailbox before answering all the same. */
const COLLECTED_WITHIN_MS = 10_000;

/**
 * The demo's own mailbox (inside Innkeeper, on 127.0.0.1), which the demo's Su delivers to while it runs, and its
 * "Close the laptop for an hour": collecting paused while the demo's guests write, what waited coming in on opening.
 */
export function createDemoMailbox(deps: {
  /** The folder of the mailbox (emptied at each start); null: no mailbox, deliveries go to the listener. */
  mailboxDir: string | null | undefined;
  laptopReopensAfterMs?: number | undefined;
  /** The demo's delivery credentials (the mailbox accepts the demo's Su with them). */
  credentials: DeliveryCredentials;
  /** Whether the demo runs and may deliver (its Su started, the owner not leaving). */
  running: () => boolean;
  control: () => EmulatorControl;
  /** The property the guests write about while the laptop is closed. */
  firstHotelId: () => string;
  /** Points the demo's Su at the mailbox or the listener again (the mailbox started or stopped). */
  connect: () => void;
  /** The demo's status changed. */
  changed: () => void;
}) {
  /** The demo's own mailbox while this computer collects from it (its deliveries go there instead of the listener). */
  let mailbox: RunningMailbox | null = null;
  let collector: DemoMailboxCollector | null = null;
  let laptopClosedAt: number | null = null;
  let laptopNote: string | null = null;
  let reopen: ReturnType<typeof setTimeout> | null = null;

  /** Until the demo's mailbox holds nothing this computer has not filed (the laptop open), at most 10 s. */
  const collected = async () => {
    const deadline = Date.now() + COLLECTED_WITHIN_MS;
    const waiting = () =>
      (mailbox?.store.db.prepare('SELECT count(*) AS n FROM boxes').get() as { n: number } | undefined)?.n ?? 0;
    while (mailbox && laptopClosedAt === null && waiting() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  /** The demo's mailbox stops; the app lets its pairing go first (when it was paired). */
  const stopMailbox = async () => {
    openLaptopNow();
    const running = mailbox;
    mailbox = null;
    deps.connect();
    if (!running) return;
    await collector?.unpair().catch((error: unknown) => console.error(`demo: ${errorText(error)}`));
    await running.close();
    if (deps.mailboxDir) rmSync(deps.mailboxDir, { recursive: true, force: true });
  };

  /** The laptop is open again: collecting resumes, and what waited in the mailbox comes in. */
  const openLaptopNow = () => {
    if (reopen) clearTimeout(reopen);
    reopen = null;
    if (laptopClosedAt === null) return;
    laptopClosedAt = null;
    laptopNote = null;
    collector?.resume();
  };

  /** While the laptop is closed, the demo's guests write: three messages and a review (a moment, as if an hour). */
  const guestsWrite = async (): Promise<string> => {
    const hotelId = deps.firstHotelId();
    let messages = 0;
    let reviews = 0;
    for (let i = 0; i < 3; i++) {
      const outcome = await deps.control().everydayMessage();
      if (outcome.acknowledged) messages += 1;
    }
    const review = await deps.control().push({ kind: 'review', channel: '19', [PROPERTY_FIELD.review]: hotelId });
    if (review.acknowledged) reviews += 1;
    const what = [
      messages ? `${messages} guest ${messages === 1 ? 'message' : 'messages'}` : '',
      reviews ? 'a review' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return what
      ? `While the laptop is closed, ${what} reached your mailbox: they wait there until this computer collects again.`
      : 'The demo’s guests could not write: their messages did not reach the mailbox.';
  };

  return {
    /** The closed laptop, for the demo's status. */
    laptopClosedAt: () => laptopClosedAt,
    laptopNote: () => (laptopClosedAt === null ? null : laptopNote),
    /** A delivery the mailbox acknowledged waits there (the laptop is closed). */
    waiting: () => mailbox !== null && laptopClosedAt !== null,
    collected,
    stop: stopMailbox,
    open: openLaptopNow,
    /** The app's collecting (the mailbox feature attaches it as it is built). */
    attach(attached: DemoMailboxCollector): void {
      collector = attached;
    },
    /** The running mailbox (for tests), or null. */
    running: () => mailbox,
    /**
     * Starts the demo's mailbox on a free loopback port and pairs this computer with it; from then on the demo's
     * deliveries go through it. Nothing when it is not wanted, runs already, or the owner paired a mailbox of their
     * own (then it stops again and the demo delivers to the listener).
     */
    async start(): Promise<void> {
      if (!deps.mailboxDir || !collector || !deps.running() || mailbox) return;
      rmSync(deps.mailboxDir, { recursive: true, force: true });
      mkdirSync(deps.mailboxDir, { recursive: true, mode: 0o700 });
      const running = await startMailbox({ dataDir: deps.mailboxDir, port: 0, host: '127.0.0.1' });
      let paired = false;
      try {
        paired =
          running.pairingCode !== null && (await collector.pair(running.url, running.pairingCode, deps.credentials));
      } finally {
        if (!paired) {
          await running.close();
          rmSync(deps.mailboxDir, { recursive: true, force: true });
        }
      }
      if (!paired) return;
      // A second computer of the demo's (the front desk's: paired 12 days ago, last seen 3 hours ago), so that
      // unpairing another device can be tried on the demo.
      const desk = running.store.transaction(() =>
        running.store.addDevice({
          name: 'Front desk PC',
          publicKey: generateDeviceKeyPair().publicKey,
          pushUser: deps.credentials.username,
          pushPassword: deps.credentials.password,
        }),
      );
      running.store.db
        .prepare('UPDATE devices SET paired_at = ?, last_seen_at = ? WHERE id = ?')
        .run(Date.now() - 12 * 86_400_000, Date.now() - 3 * 3_600_000, desk.id);
      mailbox = running;
      deps.connect();
      deps.changed();
    },
    /**
     * "Close the laptop for an hour" (`open` false): collecting from the demo's mailbox stops, and the demo's guests
     * write three messages and a review meanwhile (in a moment: a simulated hour); it opens again with `open` true, or
     * by itself after two minutes, and what waited comes in with "… arrived while this computer was off".
     */
    async laptop(open: boolean): Promise<void> {
      if (open) {
        openLaptopNow();
        deps.changed();
        return;
      }
      if (!mailbox || !collector) {
        throw new AppFailure({
          code: ErrorCode.NotConfigured,
          message: deps.running()
            ? 'The demo’s mailbox is not running (a mailbox of your own is paired), so there is no laptop to close.'
            : 'The demo provider is not in use: choose it on the Connection screen first.',
          retryable: false,
        });
      }
      if (laptopClosedAt !== null) return;
      laptopClosedAt = Date.now();
      laptopNote = 'The laptop is closed: the demo’s guests are writing…';
      await collector.pause();
      deps.changed();
      try {
        laptopNote = await guestsWrite();
      } catch (error) {
        laptopNote = `The demo’s guests could not write: ${errorText(error)}`;
      }
      if (laptopClosedAt !== null) {
        reopen = setTimeout(() => {
          openLaptopNow();
          deps.changed();
        }, deps.laptopReopensAfterMs ?? LAPTOP_REOPENS_AFTER_MS);
        reopen.unref();
      }
      deps.changed();
    },
  };
}
