import type { PushStatus } from '../../shared/push';
import type { FeatureContext } from '../featureContext';
import type { Outbox } from '../outbox/outbox';
import type { OutboxItem } from '../outbox/types';
import type { ProviderClient } from '../provider/client';
import { photosHandlers } from './handlers';
import { createPhotoFiles } from './library';
import { createMediaLinks } from './media';
import { createPhotosService, PHOTO_KINDS, type PhotoSenders, type PhotosService } from './photosService';
import { fetchImageBytes, photoReach, providerOnThisComputer, smallJpeg } from './reach';

/** How often uploaded photos are checked at Su (whether Su's copy answers yet). */
const CHECK_EVERY_MS = 5_000;

/**
 * The outbox's senders of photo work. A photo removed from the library before its turn: nothing is sent for it
 * (and nothing blocks the queue). The client is looked up at each send.
 */
export function photoOutbox(photos: () => PhotosService, client: () => ProviderClient) {
  return {
    senders: {
      [PHOTO_KINDS.create]: (payload) => {
        const request = photos().createRequest(payload);
        return request ? client().images.create(request) : Promise.resolve({ nothingLeft: true });
      },
      [PHOTO_KINDS.associate]: (payload) => {
        const request = photos().associateRequest(payload);
        return request ? client().images.associate(request) : Promise.resolve({ nothingLeft: true });
      },
    } satisfies PhotoSenders,
    markSentRefusals: { [PHOTO_KINDS.create]: (item: OutboxItem) => photos().markSentRefusal(item) },
  };
}

/**
 * Photos: files in the data folder, served to Su at unguessable addresses on the listener while it fetches them
 * (`media.routes` is registered on the listener before it starts), uploaded through the outbox and checked at Su.
 */
export function createPhotosFeature(
  context: FeatureContext & { dataDir: string; outbox: Outbox<PhotoSenders>; pushStatus: () => PushStatus },
) {
  const { database, events, connection } = context;
  const changed = (hotelId: string) => events.emit('photos.changed', { hotelId });
  const files = createPhotoFiles(context.dataDir);
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
  const photos = createPhotosService({
    database,
    outbox: context.outbox,
    now: context.now,
    files,
    media,
    provider: () => connection.active(),
    reach: () =>
      photoReach(
        context.pushStatus(),
        providerOnThisComputer(context.profiles.resolve(connection.active()).mainBaseUrl),
      ),
    roomsOf: (hotelId) =>
      context
        .properties()
        .find((p) => p.hotelId === hotelId)
        ?.rooms.map((r) => r.id) ?? [],
    retrieve: (hotelId) => connection.provider().images.list({ hotelid: hotelId }),
    fetchImage: fetchImageBytes,
    changed,
  });

  let verifying = false;
  const check = () => {
    if (verifying) return;
    verifying = true;
    void photos
      .verify()
      // A photo Su now holds: what Su holds is read again, so the At Su list is never behind the library.
      .then((touched) => Promise.all(touched.map((hotelId) => photos.reconcile(hotelId).then(() => changed(hotelId)))))
      .catch((error: unknown) => console.error(`photos: ${String(error)}`))
      .finally(() => (verifying = false));
  };
  let timer: NodeJS.Timeout | undefined;

  return {
    photos,
    media,
    handlers: (outboxChanged: () => void) => photosHandlers({ photos, files, outboxChanged, thumbnailOf: smallJpeg }),
    afterOutboxChange(item: OutboxItem): void {
      const hotelId = photos.onOutboxChange(item);
      if (!hotelId) return;
      changed(hotelId);
      // Su fetches a created photo within moments: look at its copy soon rather than at the next round.
      if (item.kind === PHOTO_KINDS.create && item.state === 'sent') setTimeout(check, 800).unref();
    },
    start(): void {
      timer ??= setInterval(check, CHECK_EVERY_MS);
      timer.unref();
    },
    stop(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
