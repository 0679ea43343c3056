import { join } from 'node:path';
import type { AppInfo, HostKind } from '../shared/contract';
import type { SecretStore } from './config/secretStore';
import type { SettingsStore } from './config/settingsStore';
import { connectionHandlers } from './connection/handlers';
import type { ConnectionService } from './connection/connectionService';
import { createConnectionFeature } from './connection/feature';
import type { DemoProvider } from './demo/demoProvider';
import { demoHandlers } from './demo/handlers';
import { createDesktopFeature } from './desktop/feature';
import type { LoginItems } from './desktop/startAtLogin';
import { openDatabase, type Database } from './db/database';
import type { FeatureContext } from './featureContext';
import { createDispatcher, type Dispatcher, type Handlers } from './gateway/dispatcher';
import { createEventBus, type EventBus } from './gateway/events';
import { createInboxFeature } from './inbox/feature';
import type { Notifier } from './inbox/news';
import { replySenders } from './inbox/replySenders';
import { createNoticesFeature } from './notices/feature';
import type { NoticeNotifier } from './notices/handlers';
import { outboxHandlers } from './outbox/handlers';
import { createOutbox } from './outbox/outbox';
import { createPaymentsFeature } from './payments/feature';
import type { PaymentNotifier } from './payments/handlers';
import { createPhotosFeature, photoOutbox } from './photos/feature';
import { createPropertyFeature } from './property/feature';
import { propertyOutbox } from './property/senders';
import { createPushFeature } from './push/feature';
import type { PushEnvironment, PushService } from './push/pushService';
import type { TunnelProvider } from './push/tunnel';
import { createRatesFeature, ratesOutbox } from './rates/feature';
import { savedRepliesHandlers } from './savedReplies/handlers';
import { createSavedReplies } from './savedReplies/savedReplies';

export interface CoreDeps {
  host: HostKind;
  version: string;
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** The built-in demo provider (absent when there is none); it runs only while the demo is the active provider. */
  demo?: DemoProvider;
  forceDemo: boolean;
  /** INNKEEPER_PUSH_* values. */
  pushEnv?: PushEnvironment;
  notifier?: Notifier & Partial<NoticeNotifier> & Partial<PaymentNotifier>;
  /** Opens tunnels for the push listener (ngrok unless a test supplies a loopback forwarder). */
  tunnelProvider?: TunnelProvider;
  /** The OS's login items (the installed desktop app); without them the start-at-login choice is only kept. */
  loginItems?: LoginItems;
  now?: () => number;
}

/** Everything the hosts need: the dispatcher for calls, the bus for events, and a way to start and stop. */
export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  db: Database;
  connection: ConnectionService;
  push: PushService;
  /** Starts what listens (the push receiver) and what sends (the outbox). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root: builds every feature from its dependencies and puts their slices of the contract
 * together. It only wires; each feature's rules live in its folder. Imports no `electron`; nothing here starts
 * on import. Hosts create the settings and secret stores (electron-store + safeStorage, or conf + a 0600 file).
 */
export function createCore(deps: CoreDeps): Core {
  const now = deps.now ?? Date.now;
  const db = openDatabase(join(deps.dataDir, 'innkeeper.db'), undefined, undefined, { checkApart: true });
  const events = createEventBus(() => deps.secrets.values());
  const { profiles, connection } = createConnectionFeature({
    ...deps,
    database: db,
    events,
    now,
    demoUrls: () => deps.demo?.urls() ?? null,
  });
  const context: FeatureContext = {
    database: db,
    now,
    events,
    connection,
    profiles,
    properties: () => ratesFeature.rates.properties(),
  };

  // Each feature's outbox work; the client is looked up at each send, so a send after the owner fixed
  // credentials uses the new ones.
  const client = () => connection.provider();
  const ratesWork = ratesOutbox(client);
  const photoWork = photoOutbox(() => photosFeature.photos, client);
  const propertyWork = propertyOutbox(() => propertyFeature.property, client);
  const outbox = createOutbox({
    db,
    now,
    random: Math.random,
    senders: {
      ...replySenders(client),
      ...ratesWork.senders,
      ...propertyWork.senders,
      ...photoWork.senders,
    },
    markSentRefusals: {
      ...ratesWork.markSentRefusals,
      ...propertyWork.markSentRefusals,
      ...photoWork.markSentRefusals,
    },
    provider: () => connection.active(),
    onChange: (item) => {
      ratesFeature.afterOutboxChange(item);
      propertyFeature.afterOutboxChange(item);
      photosFeature.afterOutboxChange(item);
      inbox.news.afterOutboxChange(item);
      outboxFeature.changed();
    },
  });
  const inbox = createInboxFeature({ ...context, outbox, notifier: deps.notifier });
  const outboxFeature = outboxHandlers({ outbox, replies: inbox.replies, events, isReply: inbox.isReply });
  const ratesFeature = createRatesFeature({ ...context, outbox, outboxChanged: outboxFeature.changed });
  const propertyFeature = createPropertyFeature({ ...context, outbox, outboxChanged: outboxFeature.changed });
  const notices = createNoticesFeature({
    ...context,
    offline: () => (outbox.unreachableUntil() ?? 0) > now(),
    notifier: deps.notifier,
  });
  const payments = createPaymentsFeature({ ...context, notifier: deps.notifier });
  const photosFeature = createPhotosFeature({
    ...context,
    dataDir: deps.dataDir,
    outbox,
    pushStatus: () => push.status(),
  });
  const {
    push,
    handlers: pushMethods,
    stop: stopPush,
  } = createPushFeature(context, {
    ...deps,
    env: deps.pushEnv,
    demo: deps.demo?.push,
    publicRoutes: (app) => photosFeature.media.routes(app),
    news: inbox.news,
  });
  const desktop = createDesktopFeature(context, { settings: deps.settings, loginItems: deps.loginItems });

  const handlers = {
    'app.info': (): AppInfo => {
      const { version, host, dataDir } = deps;
      return { version, host, dataDir, secretStorage: deps.secrets.kind };
    },
    ...connectionHandlers({ connection, onSaved: outboxFeature.credentialsSaved }),
    ...pushMethods,
    ...inbox.handlers,
    ...outboxFeature.handlers,
    ...savedRepliesHandlers(createSavedReplies(db.db, now)),
    ...ratesFeature.handlers,
    ...propertyFeature.handlers,
    ...photosFeature.handlers(outboxFeature.changed),
    ...notices.handlers,
    ...payments.handlers,
    ...demoHandlers({
      demo: deps.demo,
      events,
      checkNotices: (hotelId) => notices.notices.checkNow(hotelId),
      checkPayment: (transactionId) => payments.payments.checkTransaction(transactionId),
    }),
    ...desktop.handlers,
  } satisfies Handlers;

  return {
    dispatcher: createDispatcher(handlers, () => deps.secrets.values()),
    events,
    db,
    connection,
    push,
    start: async () => {
      ratesFeature.rates.recover();
      propertyFeature.property.recover();
      outbox.start();
      await push.start();
      notices.start();
      payments.start();
      photosFeature.start();
      desktop.apply();
    },
    close: async () => {
      await stopPush();
      await notices.stop();
      await payments.stop();
      photosFeature.stop();
      await outbox.stop();
      db.close();
    },
  };
}
