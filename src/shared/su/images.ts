import { z } from 'zod';
import { hotelIdSchema, idSchema, isLoopbackHttp, textSchema } from './common';

/** Images: `hotelid` is at most 20 characters on every image endpoint. */
const imageHotelId = hotelIdSchema(20);

/** An https address, or (for a provider on this computer, such as the built-in demo) a loopback http one. */
const imageUrlSchema = (loopbackAllowed: boolean) =>
  z
    .string({ message: 'A URL is required.' })
    .trim()
    .max(2000, 'At most 2000 characters.')
    .refine((v) => {
      try {
        if (new URL(v).protocol === 'https:') return true;
      } catch {
        return false;
      }
      return loopbackAllowed && isLoopbackHttp(v);
    }, 'Enter a full https:// address: the provider fetches the image from the internet.');

/**
 * Create images (endpoint 9). The provider fetches each `url` itself, so it must be public https; only a provider
 * on this computer (the built-in demo) may be given a loopback address.
 */
export const imageCreateSchemaFor = (providerOnThisComputer: boolean) =>
  z
    .object({
      hotelid: imageHotelId,
      proppmsid: idSchema('Your own property id'),
      images: z
        .array(
          z
            .object({
              url: imageUrlSchema(providerOnThisComputer),
              name: textSchema('The image name', 200),
              pms_imageid: idSchema('Your image id').optional(),
            })
            .strict(),
          { message: 'Add at least one image.' },
        )
        .min(1, 'Add at least one image.')
        .max(100, 'At most 100 images per request.'),
    })
    .strict();
export const imageCreateSchema = imageCreateSchemaFor(false);
export type ImageCreate = z.input<typeof imageCreateSchema>;

/** Associate images with the property (no roomid) or a room (endpoint 10). Each item names one image. */
export const imageAssociateSchema = z
  .object({
    hotelid: imageHotelId,
    roomid: idSchema('The room id').optional(),
    images: z
      .array(
        z
          .object({
            imageid: z.union([z.number().int().positive(), idSchema('The image id')]).optional(),
            pms_imageid: idSchema('Your image id').optional(),
          })
          .strict()
          .refine(
            (i) => (i.imageid === undefined) !== (i.pms_imageid === undefined),
            'Give either imageid or pms_imageid.',
          ),
      )
      .min(1, 'Choose at least one image.'),
  })
  .strict();
export type ImageAssociate = z.input<typeof imageAssociateSchema>;

/** List the property's images (endpoint 11). */
export const imageRetrieveSchema = z.object({ hotelid: imageHotelId }).strict();
export type ImageRetrieve = z.input<typeof imageRetrieveSchema>;

/** Fetch channel notifications for a property (endpoint 12). */
export const notificationsRequestSchema = z.object({ hotelid: hotelIdSchema() }).strict();
export type NotificationsRequest = z.input<typeof notificationsRequestSchema>;
