import type { Photo, PhotosView, PhotoUpload } from '@shared/photos';

// Photos, uploads and views as the core answers them, for the renderer's photo tests.

export const photo = (over: Partial<Photo> = {}): Photo => ({
  id: 1,
  hotelId: 'H1',
  pmsImageId: 'ik-1',
  caption: 'Sea view',
  fileName: 'IMG_0001.jpg',
  width: 1600,
  height: 1000,
  bytes: 300_000,
  original: { format: 'jpeg', width: 4000, height: 2500, bytes: 3_000_000, hadLocation: false },
  assignments: { property: true, rooms: [] },
  addedAt: 1,
  upload: null,
  associations: [],
  marks: [],
  ...over,
});

export const upload = (over: Partial<PhotoUpload> = {}): PhotoUpload => ({
  state: 'queued',
  outboxId: 7,
  error: null,
  queuedAt: 1,
  suUrl: null,
  fetchedAt: null,
  problem: null,
  ...over,
});

export const view = (over: Partial<PhotosView> = {}): PhotosView => ({
  hotelId: 'H1',
  photos: [photo()],
  checks: [],
  reach: { baseUrl: 'http://127.0.0.1:5000/media', reason: null },
  atSu: null,
  atSuError: null,
  ...over,
});
