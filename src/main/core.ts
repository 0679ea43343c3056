import { join } from 'node:path';
import type { AppInfo, HostKind } from '../shared/contract';
import type { Environment } from '../shared/environments';
import { localToday } from '../shared/dates';
import type { SecretStore } from './config/secretStore';
import type { SettingsStore } from './config/settingsStore';
import { connectionHandlers } from './connection/handlers';
import { createConnectionService, type ConnectionService } from './connection/connectionService';
import { createProfileStore } from './connection/profiles';
import type { DemoProvider } from './demo/demoProvider';
import { demoHandlers } from './demo/handlers';
import { openDatabase, type Database } from './db/database';
import { createDispatcher, type Dispatcher, type Handlers } from './gateway/dispatcher';
import { createEventBus, type EventBus } from './gateway/events';
import { inboxHandlers } from './inbox/handlers';
import { createInboxQueries } from './inbox/inboxQueries';
import { createInboxNews, type Notifier } from './inbox/news';
import { createReplyService } from './inbox/replyService';
import { noticesHandlers, noticesNews, type NoticeNotifier } from './notices/handlers';
import { createNoticesPoller, createNoticesService } from './notices/noticesService';
import { outboxHandlers } from './outbox/handlers';
import { paymentsHandlers, paymentsNews, type PaymentNotifier } from './payments/handlers';
import { createPaymentsPoller, createPaymentsService } from './payments/paymentsService';
import { createOutbox } from './outbox/outbox';
import { REPLY_KINDS, replySenders } from './inbox/replySenders';
import { photosHandlers } from './photos/handlers';
import { createPhotoFiles } from './photos/library';
import { createMediaLinks } from './photos/media';
import { createPhotosService, PHOTO_KINDS } from './photos/photosService';
import { fetchImageBytes, photoReach, providerOnThisComputer, smallJpeg } from './photos/reach';
import { propertyHandlers } from './property/handlers';
import { createPropertyService } from './property/propertyService';
import { facilitySender, PROPERTY_KINDS } from './property/senders';
import { pushHandlers } from './push/handlers';
import { createPushService, type PushEnvironment, type PushService } from './push/pushService';
import type { TunnelProvider } from './push/tunnel';
import { ratesHandlers } from './rates/handlers';
import { RATES_KIND, ratesMarkSentRefusal, ratesSender } from './rates/pushes';
import { createRatesService } from './rates/ratesService';
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
  const db = openDatabase(join(deps.dataDir, 'innkeeper.db'));
  const events = createEventBus(() => deps.secrets.values());
  const profiles = createProfileStore({
    settings: deps.settings,
    secrets: deps.secrets,
    demoUrls: () => deps.demo?.urls() ?? null,
  });
  const connection = createConnectionService({
    profiles,
    secrets: deps.secrets,
    db,
    events,
    now,
    forceDemo: deps.forceDemo,
  });
  const inbox = createInboxQueries(db.db, now);
  const inboxNews = createInboxNews({ inbox, events, notifier: deps.notifier });

  const outbox = createOutbox({
    db,
    now,
    random: Math.random,
    // The client is looked up at each send, so a send after the owner fixed credentials uses the new ones.
    senders: {
      ...replySenders(() => connection.provider()),
      [RATES_KIND]: ratesSender((request) => connection.provider().rates.send(request), localToday),
      [PROPERTY_KINDS.details]: (request) => connection.provider().property.update(request),
      // A photo removed from the library before its turn: nothing is sent for it (and nothing blocks the queue).
      [PHOTO_KINDS.create]: (payload) => {
        const request = photos.createRequest(payload);
        return request ? connection.provider().images.create(request) : Promise.resolve({ nothingLeft: true });
      },
      [PHOTO_KINDS.associate]: (payload) => {
        const request = photos.associateRequest(payload);
        return request ? connection.provider().images.associate(request) : Promise.resolve({ nothingLeft: true });
      },
      [PROPERTY_KINDS.facilities]: facilitySender((request) => connection.provider().property.setFacilities(request)),
    },
    markSentRefusals: {
      [RATES_KIND]: ratesMarkSentRefusal,
      [PROPERTY_KINDS.details]: (item) => property.markSentRefusal(item),
      [PHOTO_KINDS.create]: (item) => photos.markSentRefusal(item),
      [PROPERTY_KINDS.facilities]: (item) => property.markSentRefusal(item),
    },
    provider: () => connection.active(),
    onChange: (item) => {
      ratesFeature.afterOutboxChange(item);
      propertyFeature.afterOutboxChange(item);
      const photosOf = photos.onOutboxChange(item);
      if (photosOf) events.emit('photos.changed', { hotelId: photosOf });
      // Su fetches a created photo within moments: look at its copy soon rather than at the next round.
      if (photosOf && item.kind === PHOTO_KINDS.create && item.state === 'sent') setTimeout(checkPhotos, 800).unref();
      inboxNews.afterOutboxChange(item);
      outboxFeature.changed();
    },
  });
  const replies = createReplyService({ database: db, outbox, inbox, now });
  const rates = createRatesService({ database: db, outbox, now });
  const replyKinds = new Set<string>(Object.values(REPLY_KINDS));
  const outboxFeature = outboxHandlers({ outbox, replies, events, isReply: (kind) => replyKinds.has(kind) });
  const ratesFeature = ratesHandlers({ rates, events, outboxChanged: outboxFeature.changed });
  const property = createPropertyService({
    database: db,
    provider: () => connection.active(),
    outbox,
    now,
    setup: (hotelId) => {
      const setup = rates.properties().find((p) => p.hotelId === hotelId);
      return setup ? { name: setup.name, roomIds: setup.rooms.map((r) => r.id) } : null;
    },
  });
  const propertyFeature = propertyHandlers({ property, events, outboxChanged: outboxFeature.changed });
  // Airbnb notices: every property with Airbnb among its channels, checked in the background.
  const notices = createNoticesService({
    database: db,
    provider: () => connection.active(),
    now,
    fetch: (hotelId) => connection.provider().notifications.fetch({ hotelid: hotelId }),
    properties: () => rates.properties().flatMap((p) => (p.channels.includes('244') ? [p.hotelId] : [])),
    offline: () => (outbox.unreachableUntil() ?? 0) > now(),
    onChanged: noticesNews({
      events,
      notifier: deps.notifier?.newNotice ? (deps.notifier as NoticeNotifier) : undefined,
    }),
  });
  const noticesPoller = createNoticesPoller(notices);
  // Notices and payments are kept per provider: another provider in use is another badge count and another ledger.
  events.on('connection.changed', () =>
    // After the change itself has reached every listener.
    queueMicrotask(() => {
      events.emit('notices.changed', { unseen: notices.unseen(), added: [] });
      events.emit('payments.changed', { paid: [] });
    }),
  );

  // Payments: accounts and the ledger per provider; links followed in the background until paid or failed.
  const payments = createPaymentsService({
    database: db,
    now,
    provider: () => connection.active(),
    host: (provider) => connection.provider(provider as Environment).payments,
    properties: () => rates.properties().map((p) => ({ hotelId: p.hotelId, name: p.name })),
    hostReady: () => {
      const profile = profiles.resolve(connection.active());
      const ready = Boolean(profile.paymentApiName && profile.secrets.paymentApiKey);
      return {
        ready,
        message: ready ? null : 'Enter the payment host’s API name and key on the Connection screen to make links.',
      };
    },
    changed: paymentsNews({
      events,
      notifier: deps.notifier?.paymentReceived ? (deps.notifier as PaymentNotifier) : undefined,
    }),
  });
  const paymentsPoller = createPaymentsPoller(payments);

  // Photos: files in the data folder, served to Su at unguessable addresses on the listener while it fetches them.
  const photoFiles = createPhotoFiles(deps.dataDir);
  const media = createMediaLinks({
    database: db,
    now,
    file: (photoId) => photoFiles.paths(photoId).upload,
    onFetched: (photoId) => {
      const hotel = db.db.prepare('SELECT hotel_id FROM photos WHERE id = ?').get(photoId) as
        { hotel_id: string } | undefined;
      if (hotel) events.emit('photos.changed', { hotelId: hotel.hotel_id });
    },
  });
  const push = createPushService({
    publicRoutes: (app) => media.routes(app),
    database: db,
    settings: deps.settings,
    secrets: deps.secrets,
    env: deps.pushEnv ?? {},
    now,
    onIngested: (result) => {
      inboxNews.afterPush(result);
      pushFeature.afterPush(result);
    },
    ...(deps.demo ? { demo: deps.demo.push } : {}),
    ...(deps.tunnelProvider ? { tunnelProvider: deps.tunnelProvider } : {}),
  });
  const pushFeature = pushHandlers({ push, events });

  const photosChanged = (hotelId: string) => events.emit('photos.changed', { hotelId });
  const photos = createPhotosService({
    database: db,
    outbox,
    now,
    files: photoFiles,
    media,
    provider: () => connection.active(),
    reach: () => photoReach(push.status(), providerOnThisComputer(profiles.resolve(connection.active()).mainBaseUrl)),
    roomsOf: (hotelId) =>
      rates
        .properties()
        .find((p) => p.hotelId === hotelId)
        ?.rooms.map((r) => r.id) ?? [],
    retrieve: (hotelId) => connection.provider().images.list({ hotelid: hotelId }),
    fetchImage: fetchImageBytes,
    changed: photosChanged,
  });
  let verifying = false;
  const checkPhotos = () => {
    if (verifying) return;
    verifying = true;
    void photos
      .verify()
      // A photo Su now holds: what Su holds is read again, so the At Su list is never behind the library.
      .then((touched) =>
        Promise.all(touched.map((hotelId) => photos.reconcile(hotelId).then(() => photosChanged(hotelId)))),
      )
      .catch((error: unknown) => console.error(`photos: ${String(error)}`))
      .finally(() => (verifying = false));
  };
  const photoChecks = setInterval(checkPhotos, 5_000);
  photoChecks.unref();

  const info: AppInfo = {
    version: deps.version,
    host: deps.host,
    dataDir: deps.dataDir,
    secretStorage: deps.secrets.kind,
  };
  const handlers = {
    'app.info': () => info,
    ...connectionHandlers({ connection, onSaved: outboxFeature.credentialsSaved }),
    ...pushFeature.handlers,
    ...inboxHandlers({ inbox, replies, news: inboxNews }),
    ...outboxFeature.handlers,
    ...savedRepliesHandlers(createSavedReplies(db.db, now)),
    ...ratesFeature.handlers,
    ...propertyFeature.handlers,
    ...photosHandlers({ photos, files: photoFiles, outboxChanged: outboxFeature.changed, thumbnailOf: smallJpeg }),
    ...noticesHandlers({ notices: () => notices }),
    ...paymentsHandlers({ payments }),
    ...demoHandlers({
      demo: deps.demo,
      events,
      checkNotices: (hotelId) => notices.checkNow(hotelId),
      checkPayment: (transactionId) => payments.checkTransaction(transactionId),
    }),
  } satisfies Handlers;

  return {
    dispatcher: createDispatcher(handlers, () => deps.secrets.values()),
    events,
    db,
    connection,
    push,
    start: async () => {
      rates.recover();
      property.recover();
      outbox.start();
      await push.start();
      noticesPoller.start();
      paymentsPoller.start();
    },
    close: async () => {
      await push.stop();
      await noticesPoller.stop();
      await paymentsPoller.stop();
      clearInterval(photoChecks);
      await outbox.stop();
      db.close();
    },
  };
}
