import { STREAM_PING_MS, type SealedDelivery } from '../../receiving/mailboxProtocol';
import { openDelivery } from '../../receiving/sealing';
import { errorText } from '../../shared/result';
import type { DeliveryKind, GroupOutcome } from '../intake/ingest';
import { MailboxRefusal, MailboxUnreachable, type MailboxClient } from './mailboxClient';

/**
 * Deliveries asked for in one page while catching up, each page filed in one transaction (the mailbox answers at
 * most 500). A delivery may be up to 1 MiB and travels sealed and in base64 (about 2.4 MB each): 50 keep a page of
 * the largest ones near 120 MB, while ordinary messages of a few kilobytes still take one commit per 50.
 */
export const CATCH_UP_PAGE = 50;
/** The stream is taken for dead when nothing (not even a ping) came for this long. */
export const STREAM_SILENCE_MS = STREAM_PING_MS * 2 + 5_000;
/** Waits between tries to reach the mailbox: doubling from the first, up to the last. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** What one group of collected deliveries held, by what became of it (new ones only: a repost counts nowhere). */
export interface Collected {
  messages: number;
  reviews: number;
  quarantined: number;
  /** When the first and last of them reached the mailbox. */
  from: number | null;
  to: number | null;
}

export const nothingCollected = (): Collected => ({ messages: 0, reviews: 0, quarantined: 0, from: null, to: null });

function add(total: Collected, more: Collected): void {
  total.messages += more.messages;
  total.reviews += more.reviews;
  total.quarantined += more.quarantined;
  if (more.from !== null) total.from = total.from === null ? more.from : Math.min(total.from, more.from);
  if (more.to !== null) total.to = total.to === null ? more.to : Math.max(total.to, more.to);
}

const REVIEW_KINDS: readonly (DeliveryKind | null)[] = ['review', 'legacy-review'];

/** What the filing of opened deliveries brought, by kind (new ones only), and when they reached the mailbox. */
function count(outcomes: readonly GroupOutcome[], opened: readonly { receivedAt: number }[]): Collected {
  const collected = nothingCollected();
  outcomes.forEach((outcome, i) => {
    if (!('result' in outcome)) return;
    const { result } = outcome;
    const at = opened[i]!.receivedAt;
    let counted = true;
    if (result.outcome === 'quarantined' || result.outcome === 'not-json') collected.quarantined += 1;
    else if (result.outcome !== 'stored') counted = false;
    else if (result.kind === 'message') collected.messages += 1;
    else if (REVIEW_KINDS.includes(result.kind)) collected.reviews += 1;
    if (!counted) return;
    collected.from = collected.from === null ? at : Math.min(collected.from, at);
    collected.to = collected.to === null ? at : Math.max(collected.to, at);
  });
  return collected;
}

/** What the collector tells the service: each change of its state, once it happened. */
export interface CollectorEvents {
  /** Caught up with what waited and listening live (true), or not (false). */
  connected(connected: boolean): void;
  /**
   * A problem in the owner's words (`unreachable`: the connection failed or was refused, and is being made again);
   * `null` once the mailbox answers again.
   */
  problem(message: string | null, unreachable?: boolean): void;
  /** A group was filed (and its position saved with it). */
  filed(collected: Collected): void;
  /**
   * A catch-up after connecting collected what had waited: "… arrived while this computer was off". `saved`: it was
   * written with the filing of its last group (else there was nothing left to file then, and it is the service's).
   */
  caughtUp(collected: Collected, saved: boolean): void;
  /** The stream is live: a moment to read the mailbox's health. */
  live(signal: AbortSignal): void;
  /** The mailbox no longer knows this device (401: unpaired there, or set up again). Collecting has stopped. */
  revoked(): void;
}

export interface CollectorDeps {
  client: MailboxClient;
  /** This device's private key (to open each box). */
  privateKey: string;
  /** The mailbox's number of the last delivery filed here. */
  position(): number;
  /**
   * Files opened deliveries through the intake (the same path as a push) and, in the same transaction, saves the
   * position `upTo` answers and, while catching up, what the catch-up filed so far (`catchUp.total`; `done`: this
   * group completes it); answers the outcomes in order.
   */
  file(
    deliveries: readonly { raw: Uint8Array; receivedAt: number }[],
    upTo: (outcomes: readonly GroupOutcome[]) => {
      position: number;
      catchUp: { total: Collected; done: boolean } | null;
    },
  ): Promise<readonly GroupOutcome[]>;
  /** What an unfinished catch-up filed so far (saved with its groups: a run killed in the middle counts too). */
  catching(): Collected;
  /** Saves the position alone (past boxes that could not be opened). */
  skipTo(seq: number): void;
  events: CollectorEvents;
  /** How long the stream may be silent (not even a ping) before it is taken for dead; STREAM_SILENCE_MS unless told. */
  silenceMs?: number;
}

/**
 * Collects from the mailbox on one outbound connection: first every page of what waited after the position (a
 * catch-up), then the live stream. Each group is opened with the device's key and filed through the intake, with
 * the position saved in the same transaction; the mailbox is told (`confirm`) only after that committed. A failure
 * of any kind ends the connection; it is made again after a pause that doubles up to a minute, and starts from the
 * saved position, so a delivery is never skipped nor filed twice.
 */
export function startCollector(deps: CollectorDeps) {
  const { client, events } = deps;
  let stopped = false;
  let current: AbortController | null = null;
  let wake: (() => void) | null = null;
  /** What catching up has filed so far (as saved: across a connection that failed half-way), told once it is done. */
  let caught = nothingCollected();

  /** True once the catch-up's summary was saved with the filing of its last group. */
  let caughtSaved = false;

  /**
   * Opens, files and saves the position of deliveries in order; tells the mailbox once committed. `catchUp`: a
   * catch-up's group, what it filed before, and whether this is its last.
   */
  async function fileGroup(
    deliveries: readonly SealedDelivery[],
    signal: AbortSignal,
    catchUp: { before: Collected; last: boolean } | null = null,
  ): Promise<Collected> {
    let collected = nothingCollected();
    const fresh = deliveries.filter((d) => d.seq > deps.position()).sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0) return collected;
    const opened: { seq: number; raw: Uint8Array; receivedAt: number }[] = [];
    const unopened: number[] = [];
    for (const delivery of fresh) {
      try {
        const content = openDelivery(delivery.box, delivery.seq, deps.privateKey);
        opened.push({ seq: delivery.seq, raw: content.raw, receivedAt: content.receivedAt });
      } catch (error) {
        // Not sealed for this key, or changed on the way: no one can read it; the rest still is filed.
        unopened.push(delivery.seq);
        console.error(`mailbox: delivery ${delivery.seq} could not be opened: ${errorText(error)}`);
      }
    }
    const last = fresh.at(-1)!.seq;
    if (opened.length === 0) {
      deps.skipTo(last);
    } else {
      let failedAt: number | null = null;
      let done = false;
      const outcomes = await deps.file(opened, (results) => {
        // How far everything was filed: up to the first delivery that failed on its own (a bug, not the store;
        // taken again at the next connection), else the whole group.
        const failed = results.findIndex((o) => 'error' in o);
        failedAt = failed < 0 ? null : opened[failed]!.seq;
        collected = count(results, opened);
        let total: Collected | null = null;
        if (catchUp) {
          total = { ...catchUp.before };
          add(total, collected);
          done = failedAt === null && catchUp.last;
        }
        return {
          position:
            failedAt === null
              ? last
              : Math.max(deps.position(), ...fresh.filter((d) => d.seq < failedAt!).map((d) => d.seq)),
          catchUp: total && { total, done },
        };
      });
      if (done) caughtSaved = true;
      events.filed(collected);
      if (failedAt !== null) {
        const error = outcomes.find((o): o is { error: unknown } => 'error' in o)!.error;
        throw new Error(`delivery ${failedAt as number} could not be filed: ${errorText(error)}`);
      }
    }
    if (unopened.length > 0)
      events.problem(
        `${unopened.length === 1 ? 'A delivery' : `${unopened.length} deliveries`} from the mailbox could not be opened with this computer’s key (changed on the way, or sealed for another key) and ${unopened.length === 1 ? 'was' : 'were'} skipped.`,
      );
    // Told after the commit; when this fails the next confirmation covers it (the mailbox keeps them until then).
    await client.confirm(deps.position(), signal).catch(() => undefined);
    return collected;
  }

  /** One connection: the catch-up, then the live stream until it ends or fails (it always ends by a throw). */
  async function session(controller: AbortController, connectedAgain: () => void): Promise<never> {
    const { signal } = controller;
    caughtSaved = false;
    caught = deps.catching();
    for (let first = true; ; first = false) {
      const page = await client.deliveries(deps.position(), CATCH_UP_PAGE, signal);
      // It answers again: the last problem is over (one found while filing what follows is said anew).
      if (first) events.problem(null);
      const lastPage = !page.more || page.deliveries.length === 0;
      add(caught, await fileGroup(page.deliveries, signal, { before: caught, last: lastPage }));
      if (lastPage) break;
    }
    connectedAgain();
    if (caught.messages + caught.reviews + caught.quarantined > 0) events.caughtUp(caught, caughtSaved);
    caught = nothingCollected();
    caughtSaved = false;

    // Live: deliveries are filed in the order they come, those that come during a commit together in the next one.
    let waiting: SealedDelivery[] = [];
    let draining: Promise<void> | null = null;
    const drain = async () => {
      try {
        while (waiting.length > 0 && !signal.aborted) {
          const group = waiting;
          waiting = [];
          await fileGroup(group, signal);
        }
      } catch (error) {
        controller.abort(error);
      } finally {
        draining = null;
      }
    };
    // Silence ends the connection: one timer, pushed back at each sign of life (a ping every 20 s), fires only once
    // none came for `silenceMs` (a check every few seconds would wake the idle computer all day).
    const silenceMs = deps.silenceMs ?? STREAM_SILENCE_MS;
    const watch = setTimeout(
      () =>
        controller.abort(
          new MailboxUnreachable(`the connection went silent (no sign of life for ${silenceMs / 1000} seconds)`),
        ),
      silenceMs,
    );
    // Connected once the stream answered: from then on deliveries come as the mailbox receives them.
    let live = false;
    try {
      await client.stream(
        deps.position(),
        signal,
        (delivery) => {
          waiting.push(delivery);
          draining ??= drain();
        },
        () => {
          watch.refresh();
          if (live) return;
          live = true;
          events.connected(true);
          events.live(signal);
        },
      );
      throw new MailboxUnreachable('the mailbox closed the connection');
    } catch (error) {
      // The reason the connection ended (a failed filing, silence) rather than the abort it caused.
      throw signal.aborted && signal.reason !== undefined ? signal.reason : error;
    } finally {
      clearTimeout(watch);
      // A group being filed finishes first (the core closes the data file once collecting has stopped).
      if (draining) await draining;
      if (live) events.connected(false);
    }
  }

  const running = (async () => {
    let attempt = 0;
    while (!stopped) {
      const controller = new AbortController();
      current = controller;
      try {
        await session(controller, () => (attempt = 0));
      } catch (error) {
        if (stopped) break;
        if (error instanceof MailboxRefusal && error.status === 401) {
          events.revoked();
          break;
        }
        events.problem(
          error instanceof MailboxRefusal
            ? `The mailbox refused: ${error.message}`
            : error instanceof MailboxUnreachable
              ? `Innkeeper cannot reach the mailbox: ${error.message}.`
              : `Collecting from the mailbox failed: ${errorText(error)}`,
          true,
        );
      }
      if (stopped) break;
      attempt += 1;
      const pause = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();

  return {
    /** Ends the connection and waits until nothing more is filed. */
    async stop(): Promise<void> {
      stopped = true;
      current?.abort(new Error('stopped'));
      wake?.();
      await running;
    },
  };
}

export type Collector = ReturnType<typeof startCollector>;
