import { join } from 'node:path';
import type { AppInfo, HostKind } from '../shared/contract';
import type { NewMessageEvent } from '../shared/inbox';
import { threadQuerySchema } from '../shared/inbox';
import { type OutboxStatus } from '../shared/outbox';
import { AppFailure, errorText } from '../shared/result';
import { localToday } from '../shared/dates';
import { openDatabase, type Database } from './db/database';
import { startEmulator, type RunningEmulator } from '../emulator/emulator';
import { createEventBus, type EventBus } from './gateway/events';
import { createDispatcher, type Dispatcher, type Handlers } from './gateway/dispatcher';
import { createInboxQueries } from './inbox/inboxQueries';
import { createReplyService } from './inbox/replyService';
import { ratesSender } from './rates/pushes';
import { createRatesService, RATES_KIND } from './rates/ratesService';
import { createSavedReplies } from './savedReplies/savedReplies';
import { createOutbox } from './outbox/outbox';
import { replySenders } from './outbox/senders';
import type { IngestResult } from './push/ingest';
import type { TunnelProvider } from './push/tunnel';
import { createPushService, type PushEnvironment, type PushService } from './push/pushService';
import type { SecretStore } from './config/secretStore';
import { createConnectionService, type ConnectionService } from './connection/connectionService';
import { createProfileStore, type DemoUrls } from './connection/profiles';
import type { SettingsStore } from './config/settingsStore';
import type { PropertySetupInput } from '../shared/rateSetups';

/** What a host does to get the owner's attention: native notification + tray (Electron), or nothing extra. */
export interface Notifier {
  newMessage(message: NewMessageEvent): void;
  unreadCount(count: number): void;
}

export interface CoreDeps {
  host: HostKind;
  version: string;
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Where the built-in demo provider listens (null when it is not running). */
  demoUrls: DemoUrls | null;
  forceDemo: boolean;
  /** INNKEEPER_PUSH_* values. */
  pushEnv?: PushEnvironment;
  notifier?: Notifier;
  /** Opens tunnels for the push listener (ngrok unless a test supplies a loopback forwarder). */
  tunnelProvider?: TunnelProvider;
  /** Points the built-in demo provider's pushes at the listener. */
  connectDemo?: (target: { url: string; username: string; password: string }) => void;
  /** The demo provider's rooms and rate plans, entered for the owner the first time Rates opens on it. */
  demoRateSetups?: PropertySetupInput[];
  now?: () => number;
}

/** Everything the hosts need: the dispatcher for calls, the bus for events, and a way to start and stop. */
export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  db: Database;
  connection: ConnectionService;
  push: PushService;
  /** Starts what listens (the push receiver). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root: builds every service from its dependencies. Imports no `electron`; nothing here starts
 * on import. Hosts create the settings and secret stores (electron-store + safeStorage, or conf + a 0600 file).
 */
export function createCore(deps: CoreDeps): Core {
  const now = deps.now ?? Date.now;
  const db = openDatabase(join(deps.dataDir, 'innkeeper.db'));
  const events = createEventBus(() => deps.secrets.values());
  const profiles = createProfileStore({ settings: deps.settings, secrets: deps.secrets, demoUrls: deps.demoUrls });
  const connection = createConnectionService({
    profiles,
    secrets: deps.secrets,
    db,
    events,
    now,
    forceDemo: deps.forceDemo,
  });
  const inbox = createInboxQueries(db.db, now);

  const inboxChanged = (threadId: number | null, reviewId: number | null) => {
    const counts = inbox.counts();
    events.emit('inbox.changed', { threadId, reviewId, counts });
    // The same count as the navigation badge and the window title: unread conversations and reviews.
    deps.notifier?.unreadCount(counts.unreadThreads + counts.unreadReviews);
    return counts;
  };

  // Runs after the acknowledgement went out (RELIABILITY 8): UI updates and notifications only. A failure here
  // (a closed window, a destroyed tray) is logged, never thrown: the push is already safely stored.
  const onIngested = (result: IngestResult) => {
    try {
      announce(result);
    } catch (error) {
      console.error(`after a push: ${errorText(error)}`);
    }
  };
  const announce = (result: IngestResult) => {
    if (result.outcome !== 'stored' && result.outcome !== 'quarantined') return;
    if (result.message?.author === 'guest') {
      const thread = inbox.thread(result.message.threadId);
      const message: NewMessageEvent = {
        threadId: thread.id,
        channelName: thread.channelName,
        guestName: thread.guestName,
        preview: thread.messages.at(-1)?.body.slice(0, 140) ?? '',
      };
      events.emit('inbox.newMessage', message);
      deps.notifier?.newMessage(message);
    }
    inboxChanged(result.message?.threadId ?? null, result.review?.reviewId ?? null);
    events.emit('push.changed', push.status());
  };

  const outbox = createOutbox({
    db,
    now,
    random: Math.random,
    // The client is built at each send, so a send after the owner fixed credentials uses the new ones.
    senders: {
      ...replySenders(() => connection.provider()),
      [RATES_KIND]: ratesSender((request) => connection.provider().rates.send(request), localToday),
    },
    onChange: (item) => {
      rates.onOutboxChange(item);
      const [kind, id] = item.entityKey.split(':');
      if (kind === 'rates') {
        events.emit('rates.changed', { hotelId: item.entityKey.slice('rates:'.length) });
        events.emit('outbox.changed', outboxStatus());
        return;
      }
      // Whether a thread still needs a reply depends on where its replies are (failed and discarded do not count).
      if (kind === 'thread') inbox.refreshThread(Number(id));
      inboxChanged(kind === 'thread' ? Number(id) : null, kind === 'review' ? Number(id) : null);
      events.emit('outbox.changed', outboxStatus());
    },
    onError: (error) => console.error(`outbox: ${errorText(error)}`),
  });
  const outboxStatus = (): OutboxStatus => {
    const paused = outbox.paused();
    return {
      // The inbox's banner speaks of replies: rates pushes are followed on the Rates screen.
      ...outbox.counts((kind) => kind !== RATES_KIND),
      paused: paused ? { message: paused.error.message, since: paused.since } : null,
      unreachableUntil: outbox.unreachableUntil(),
      firstFailed: firstFailedReply(),
    };
  };
  /** The conversation or review of the oldest failed reply, so the banner can take the owner there. */
  const firstFailedReply = (): OutboxStatus['firstFailed'] => {
    const item = outbox.pending().find((i) => i.state === 'failed' && i.kind !== RATES_KIND);
    const [kind, id] = item?.entityKey.split(':') ?? [];
    if (kind === 'thread') return { threadId: Number(id) };
    if (kind === 'review') return { reviewId: Number(id) };
    return null;
  };
  const replies = createReplyService({ database: db, outbox, inbox, now });
  const rates = createRatesService({ database: db, outbox, now });
  const savedReplies = createSavedReplies(db.db, now);
  /** Returns `value` after telling the UI the outbox changed (a push was queued). */
  const outboxAfter = <T>(value: T): T => {
    events.emit('outbox.changed', outboxStatus());
    return value;
  };
  const outboxAction = (fn: () => unknown): OutboxStatus => {
    fn();
    const status = outboxStatus();
    events.emit('outbox.changed', status);
    return status;
  };

  const push = createPushService({
    database: db,
    settings: deps.settings,
    secrets: deps.secrets,
    env: deps.pushEnv ?? {},
    now,
    onIngested,
    ...(deps.connectDemo ? { connectDemo: deps.connectDemo } : {}),
    ...(deps.tunnelProvider ? { tunnelProvider: deps.tunnelProvider } : {}),
  });

  const info: AppInfo = {
    version: deps.version,
    host: deps.host,
    dataDir: deps.dataDir,
    secretStorage: deps.secrets.kind,
  };
  const handlers: Handlers = {
    'app.info': () => info,
    'connection.get': () => connection.state(),
    'connection.save': (args) => {
      const state = connection.save(args);
      // New credentials may be what a paused queue was waiting for.
      if (outbox.paused()) outboxAction(() => outbox.resume());
      return state;
    },
    'connection.test': (args) => connection.test(args),
    'connection.discardToken': (args) => connection.discardToken(args.environment),
    'push.status': () => push.status(),
    'push.save': async (args) => {
      const status = await push.save(args);
      events.emit('push.changed', status);
      return status;
    },
    'push.quarantine': () => push.quarantine(),
    'push.dismissQuarantined': (args) => {
      push.dismissQuarantined(args.id);
      const status = push.status();
      events.emit('push.changed', status);
      return status;
    },
    'inbox.threads': (args) => inbox.threads(threadQuerySchema.parse(args)),
    'inbox.thread': (args) => inbox.thread(args.id),
    'inbox.markThreadRead': (args) => {
      inbox.markThreadRead(args.id);
      return inboxChanged(args.id, null);
    },
    'inbox.reviews': (args) => inbox.reviews(args.search),
    'inbox.markReviewRead': (args) => {
      inbox.markReviewRead(args.id);
      return inboxChanged(null, args.id);
    },
    'inbox.counts': () => inbox.counts(),
    'inbox.sendReply': (args) => {
      replies.sendReply(args.threadId, args.body);
      inboxChanged(args.threadId, null);
      return inbox.thread(args.threadId);
    },
    'inbox.saveDraft': (args) => replies.saveDraft(args.threadId, args.body),
    'inbox.saveReviewDraft': (args) => {
      inbox.review(args.reviewId); // refuses an id that is not a review
      return replies.saveReviewDraft(args.reviewId, args.body);
    },
    'inbox.replyToReview': (args) => {
      replies.replyToReview(args.reviewId, args.body);
      inboxChanged(null, args.reviewId);
      return inbox.review(args.reviewId);
    },
    'outbox.status': () => outboxStatus(),
    'outbox.retry': (args) => outboxAction(() => outbox.retry(args.id)),
    'outbox.discard': (args) => outboxAction(() => outbox.discard(args.id)),
    'outbox.editReply': (args) => outboxAction(() => replies.editReply(args.id, args.body)),
    'outbox.markSent': (args) =>
      outboxAction(() => {
        // A rates push marked as sent becomes the record of what Su holds: only when Su may have taken it.
        const item = outbox.get(args.id);
        if (item?.kind === RATES_KIND && item.state === 'failed' && !item.lastError?.outcomeUnknown)
          throw new AppFailure({
            code: 'invalid_state',
            message: 'Su refused this push, so it cannot be marked as sent: retry it or discard it.',
            retryable: false,
          });
        outbox.markSent(args.id);
      }),
    'outbox.resume': () => outboxAction(() => outbox.resume()),
    'savedReplies.list': () => savedReplies.list(),
    'savedReplies.save': (args) => savedReplies.save(args),
    'savedReplies.delete': (args) => savedReplies.remove(args.id),
    'rates.properties': () => {
      // On the demo provider the owner has nothing to type in: its rooms are entered once (removable as any other).
      if (deps.demoRateSetups && connection.state().active === 'demo' && !deps.settings.get('rates.demoSetupDone')) {
        deps.settings.set('rates.demoSetupDone', true);
        if (rates.properties().length === 0) for (const setup of deps.demoRateSetups) rates.saveSetup(setup);
      }
      return rates.properties();
    },
    'rates.saveSetup': (args) => {
      rates.saveSetup(args);
      return rates.properties();
    },
    'rates.removeSetup': (args) => {
      rates.removeSetup(args.hotelId);
      return rates.properties();
    },
    'rates.book': (args) => rates.book(args.hotelId),
    'rates.draft': (args) => rates.draft(args.hotelId),
    'rates.saveDraft': (args) =>
      rates.saveDraft({ hotelId: args.hotelId, name: args.name ?? '', edits: args.edits as never }),
    'rates.preview': (args) => rates.preview(args.hotelId),
    'rates.push': (args) => outboxAfter(rates.push(args.hotelId, args.confirmed, args.fingerprint)),
    'rates.history': (args) => rates.history(args.hotelId),
    'rates.revert': (args) => outboxAfter(rates.revert(args.pushId)),
  };
  return {
    dispatcher: createDispatcher(handlers, () => deps.secrets.values()),
    events,
    db,
    connection,
    push,
    start: async () => {
      rates.recover();
      outbox.start();
      await push.start();
    },
    close: async () => {
      await push.stop();
      await outbox.stop();
      db.close();
    },
  };
}

/** Starts the built-in demo provider in this process, builds the core on top of it, and starts listening. */
export async function startCoreWithDemo(
  deps: Omit<CoreDeps, 'demoUrls' | 'connectDemo'>,
): Promise<Core & { emulator: RunningEmulator }> {
  const emulator = await startEmulator();
  const core = createCore({
    ...deps,
    demoUrls: { mainBaseUrl: emulator.mainUrl, tokenBaseUrl: emulator.tokenUrl },
    // In-process: the demo provider delivers its pushes to this app's own listener, with its credentials.
    connectDemo: (target) => {
      emulator.state.partnerEndpoint = target;
    },
    demoRateSetups: emulator.state.properties
      .filter((p) => p.active)
      .map((p) => ({
        hotelId: p.hotelid,
        name: p.name,
        channels: Object.keys(p.channels).sort((a, b) => Number(b) - Number(a)),
        rooms: p.rooms.map((room) => ({
          id: room.roomid,
          name: room.name,
          inventory: room.baseInventory,
          rates: room.ratePlans.map((plan) => ({ id: plan.rateid, name: plan.name, price: plan.baseRate })),
        })),
      })),
  });
  await core.start();
  return {
    ...core,
    emulator,
    close: async () => {
      await core.close();
      await emulator.close();
    },
  };
}
