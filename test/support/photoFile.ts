import { PHOTO_CHUNK_BYTES, type PhotoAssignments } from '../../src/shared/photos';
import type { contractClient } from './contract';

/**
 * Adds a file to a core's photo library the way the renderer does: start, its bytes in chunks of at most
 * PHOTO_CHUNK_BYTES (as bytes, as the page sends them over IPC), finish. Answers the whole result of the finish (a refusal is a result, not a throw).
 */
export async function addPhotoFile(
  { call, dispatch }: Pick<ReturnType<typeof contractClient>, 'call' | 'dispatch'>,
  hotelId: string,
  fileName: string,
  bytes: Buffer,
  assignments: PhotoAssignments = { property: true, rooms: [] },
) {
  const { uploadId } = await call('photos.addStart', { hotelId, fileName, bytes: bytes.length, assignments });
  for (let offset = 0; offset < bytes.length; offset += PHOTO_CHUNK_BYTES)
    await call('photos.addChunk', {
      uploadId,
      offset,
      data: bytes.subarray(offset, offset + PHOTO_CHUNK_BYTES),
    });
  return dispatch('photos.addFinish', { uploadId });
}
