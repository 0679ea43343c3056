import type { HandlerSlice } from '../gateway/dispatcher';
import type { PhotoFiles } from './library';
import type { PhotosService } from './photosService';

/** The `photos.*` methods. */
export function photosHandlers(deps: {
  photos: PhotosService;
  files: PhotoFiles;
  thumbnailOf: (bytes: Buffer) => Promise<string>;
}): HandlerSlice<'photos'> {
  const { photos, files } = deps;
  return {
    'photos.list': (args) => photos.list(args.hotelId),
    'photos.addStart': (args) => ({
      uploadId: files.start(args.fileName, args.bytes, { hotelId: args.hotelId, assignments: args.assignments }),
    }),
    'photos.addChunk': (args) => ({ received: files.chunk(args.uploadId, args.offset, args.data) }),
    'photos.addFinish': (args) => photos.add(args.uploadId),
    'photos.update': (args) => photos.update(args.id, { caption: args.caption, assignments: args.assignments }),
    'photos.remove': (args) => photos.remove(args.id),
    'photos.thumbnail': (args) => photos.thumbnail(args.id),
    'photos.suThumbnail': async (args) => ({
      dataUrl: await deps.thumbnailOf(await photos.suImage(args.hotelId, args.imageId)),
    }),
    'photos.upload': (args) => photos.upload(args.hotelId, args.ids),
    'photos.reconcile': (args) => photos.reconcile(args.hotelId),
  };
}
