import { connectionFeature } from '../connection/feature';
import { demoFeature } from '../demo/feature';
import { defineFeature } from '../feature';
import { createPoller } from '../lib/poller';
import { intakeFeature } from '../intake/feature';
import { outboxFeature } from '../outbox/feature';
import { outboxFor } from '../outbox/outbox';
import type { OutboxItem } from '../outbox/types';
import { ratesFeature } from '../rates/feature';
import { photosHandlers } from './handlers';
import { createImageReader } from './imageReader';
import type { StartReaderProcess } from './readerProcess';
import { createPhotoFiles } from './library';
import { createMediaLinks } from './media';
import { PHOTOS_MIGRATIONS } from './migrations';
import { createPhotosService, PHOTO_KINDS, type MailboxMedia, type PhotoKinds } from './photosService';
import { fetchImageBytes, photoReach, providerOnThisComputer, smallJpeg } from './reach';

/** How often uploaded photos are checked at Su while one's copy is awaited (whether it answers yet). */
const CHECK_EVERY_MS = 5_000;

/**
 * Photos: files in the data folder, served to Su at unguessable addresses on the intake's listener while it
 * fetches them, uploaded through the outbox and checked at Su.
 */
export const photosFeature = defineFeature({
  name: 'photos',
  migrations: PHOTOS_MIGRATIONS,
  create(context) {
    const { database, events } = context;
    const { connection, profiles } = context.use(connectionFeature);
    const intake = context.use(intakeFeature);
    const rates = context.use(ratesFeature);
    const changed = (hotelId: string) => events.emit('photos.changed', { hotelId });
    // Every image file from outside is read in a process of its own (imageReader.ts), started as the host says
    // (`imageProcess`: the Electron host's utilityProcess; a Node child process otherwise).
    const reader = createImageReader({ startProcess: context.options.imageProcess as StartReaderProcess | undefined });
    const files = createPhotoFiles(context.dataDir, reader);
    // The demo's Su draws the photos it holds from the start in the reader's process too: sharp stays out of the core.
    context.use(demoFeature)?.drawPhotosWith((svg) => reader.draw(svg));
    const media = createMediaLinks({
      database,
      now: context.now,
      file: (photoId) => files.paths(photoId).upload,
      onFetched: (photoId) => {
        const hotel = database.db.prepare('SELECT hotel_id FROM photos WHERE id = ?').get(photoId) as
          { hotel_id: string } | undefined;
        if (hotel) changed(hotel.hotel_id);
      },
    });
    // The photo addresses are answered on the listener Su already reaches (its tunnel, or the owner's address)...
    intake.publicRoutes((app) => media.routes(app));
    // ...or, with a mailbox paired (the demo's own too), by the mailbox: no tunnel, no address of the owner's.
    let mailboxMedia: () => MailboxMedia | null = () => null;
    const mailbox = () => mailboxMedia();
    const photos = createPhotosService({
      database,
      outbox: outboxFor<PhotoKinds>(context.use(outboxFeature)),
      now: context.now,
      files,
      media,
      provider: () => connection.active(),
      reach: () => {
        const paired = mailbox();
        return paired
          ? { baseUrl: paired.url, reason: null }
          : photoReach(intake.status(), providerOnThisComputer(profiles.resolve(connection.active()).mainBaseUrl));
      },
      mailbox,
      roomsOf: (hotelId) =>
        rates
          .properties()
          .find((p) => p.hotelId === hotelId)
          ?.rooms.map((r) => r.id) ?? [],
      retrieve: (hotelId) => connection.provider().images.list({ hotelid: hotelId }),
      fetchImage: fetchImageBytes,
      changed,
    });

    /**
     * Addresses at the mailbox that are done with (Su's copy answers, the upload settled, a day passed): deleted there.
     * One the mailbox cannot be told about now is tried again at the next round (it forgets it after its day anyway).
     */
    const clearAtMailbox = async () => {
      const paired = mailbox();
      for (const link of media.toClearAtMailbox()) {
        // Unpaired meanwhile: the mailbox dropped this computer's photos with its pairing.
        if (!paired) media.clearedAtMailbox(link.token);
        else
          await paired.remove(link.name).then(
            () => media.clearedAtMailbox(link.token),
            () => undefined,
          );
      }
    };

    // The provider answers elsewhere now (the demo's port was taken): Su's copies are at the new address.
    context.bus.on('providerMoved', ({ provider, from, to }) => photos.moveAddresses(provider, from, to));

    /** One look at Su's copies (and addresses done with at the mailbox); a look asked while one runs joins it. */
    let looking: Promise<void> | null = null;
    const look = () =>
      (looking ??= photos
        .verify()
        // A photo Su now holds: what Su holds is read again, so the At Su list is never behind the library.
        .then((touched) =>
          Promise.all(touched.map((hotelId) => photos.reconcile(hotelId).then(() => changed(hotelId)))),
        )
        .then(clearAtMailbox)
        .finally(() => (looking = null)));
    // Only while there is something to look at: a pending copy (every 5 s), a failed one (once a minute), an address
    // to clear at the mailbox; else once a minute in case.
    const poller = createPoller({
      name: 'photos',
      round: look,
      settle: () => looking ?? Promise.resolve(),
      tickMs: CHECK_EVERY_MS,
      nextDue: () => (media.toClearAtMailbox().length > 0 ? context.now() : photos.nextAt()),
    });

    /** One of the photos' items moved on: its property's tab refreshes; a created photo is looked at soon. */
    const afterChange = (item: OutboxItem) => {
      const hotelId = photos.onOutboxChange(item);
      if (!hotelId) return;
      changed(hotelId);
      // Su fetches a created photo within moments: look at its copy soon rather than at the next round.
      if (item.kind === PHOTO_KINDS.create && item.state === 'sent') {
        setTimeout(() => look().catch((error: unknown) => console.error(`photos: ${String(error)}`)), 800).unref();
        poller.poke();
      }
    };
    // A photo removed from the library before its turn: nothing is sent for it (and nothing blocks the queue).
    const client = () => connection.provider();
    const outboxKinds: PhotoKinds = {
      [PHOTO_KINDS.create]: {
        send: async (payload) => {
          const request = await photos.createRequest(payload);
          return request ? client().images.create(request) : { nothingLeft: true };
        },
        markSentRefusal: (item) => photos.markSentRefusal(item),
        changed: afterChange,
      },
      [PHOTO_KINDS.associate]: {
        send: (payload) => {
          const request = photos.associateRequest(payload);
          return request ? client().images.associate(request) : Promise.resolve({ nothingLeft: true });
        },
        changed: afterChange,
      },
    };

    return {
      provides: {
        /** The mailbox feature (later in the list) says here how to reach the paired mailbox, if any. */
        mailboxMedia: {
          attach(source: () => MailboxMedia | null): void {
            mailboxMedia = source;
          },
        },
      },
      outboxKinds,
      handlers: photosHandlers({ photos, files, thumbnailOf: (bytes) => smallJpeg(reader, bytes) }),
      start: () => poller.start(),
      async stop(): Promise<void> {
        await poller.stop();
        await reader.close();
      },
    };
  },
});
