import type { OutboxKind } from '../outbox/types';

/** The outbox kinds of photos: Su's image create (endpoint 9) and association (endpoint 10). */
export const PHOTO_KINDS = { create: 'photo-create', associate: 'photo-associate' } as const;
export type PhotoCreatePayload = { hotelId: string; photoIds: number[]; pmsImageIds?: string[] };
export type PhotoAssociatePayload = { hotelId: string; roomId: string | null; pmsImageIds: string[] };
export type PhotoKinds = {
  [PHOTO_KINDS.create]: OutboxKind<PhotoCreatePayload>;
  [PHOTO_KINDS.associate]: OutboxKind<PhotoAssociatePayload>;
};
/** What a property's photo work belongs to in the outbox: creates before the associations that name them, in order. */
export const photosKey = (hotelId: string) => `photos:${hotelId}`;
