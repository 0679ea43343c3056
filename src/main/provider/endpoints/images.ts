import {
  imageAssociateSchema,
  imageCreateSchemaFor,
  imageRetrieveSchema,
  type ImageAssociate,
  type ImageCreate,
  type ImageRetrieve,
} from '../../../shared/su/images';
import { isLoopbackHttp } from '../../../shared/su/common';
import { isObject, isSuccess } from '../envelope';
import { callEndpoint, pick, type ProviderContext } from '../request';

/** One created image, in the order of the request. Exactly one of the two ids is set. */
export interface CreatedImage {
  sourceUrl: string;
  providerUrl: string;
  /** The provider's numeric id, when no own id was given. */
  imageId: number | null;
  /** The id the owner's system gave, echoed back. */
  ownImageId: string | null;
}

/** An image as the provider lists it. */
export interface ProviderImage {
  name: string;
  sourceUrl: string;
  providerUrl: string;
  imageId: number;
  ownImageId: string | null;
  associated: boolean;
}

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const numberOrNull = (v: unknown) => (v === undefined || v === null || v === '' ? null : Number(v));
const data = (body: unknown): unknown[] | null => {
  const d = pick(body, 'Data', 'data');
  return Array.isArray(d) ? d : null;
};
const hotelField = (p: { text: string; field?: string }) => (/hotel/i.test(p.text) ? 'hotelid' : p.field);

/** Endpoint 9: create images; results come back in input order. */
export function createImages(ctx: ProviderContext, input: ImageCreate): Promise<CreatedImage[]> {
  return callEndpoint(
    ctx,
    {
      what: 'Uploading the photos',
      host: 'main',
      path: '/jservice/imageCreate',
      auth: 'bearer',
      // The built-in demo provider runs on this computer: it may fetch photos from a loopback address.
      schema: imageCreateSchemaFor(isLoopbackHttp(ctx.main.defaults.baseURL)),
      parse: (body) => {
        const items = isSuccess(body) ? data(body) : null;
        if (!items) return null;
        return items.filter(isObject).map((i) => ({
          sourceUrl: text(i.image_url),
          providerUrl: text(i.su_url),
          imageId: numberOrNull(i.imageid),
          ownImageId: i.pms_imageid == null || i.pms_imageid === '' ? null : text(i.pms_imageid),
        }));
      },
      fieldFor: hotelField,
    },
    input,
  );
}

/** Endpoint 10: associate images with the property, or with a room when `roomid` is given. */
export function associateImages(ctx: ProviderContext, input: ImageAssociate): Promise<{ associated: number }> {
  return callEndpoint(
    ctx,
    {
      what: 'Assigning the photos',
      host: 'main',
      path: '/jservice/imageAssociation',
      auth: 'bearer',
      schema: imageAssociateSchema,
      toWire: (v) => ({
        ...v,
        images: v.images.map((i) => (i.imageid !== undefined ? { imageid: String(i.imageid) } : i)),
      }),
      parse: (body) => (isSuccess(body) ? { associated: input.images.length } : null),
      fieldFor: (p) => (/room/i.test(p.text) ? 'roomid' : hotelField(p)),
    },
    input,
  );
}

/** Endpoint 11: list the property's images. */
export function retrieveImages(ctx: ProviderContext, input: ImageRetrieve): Promise<ProviderImage[]> {
  return callEndpoint(
    ctx,
    {
      what: 'Loading the photos',
      host: 'main',
      path: '/jservice/imageRetrieve',
      auth: 'bearer',
      schema: imageRetrieveSchema,
      parse: (body) => {
        const items = isSuccess(body) ? data(body) : null;
        if (!items) return null;
        return items.filter(isObject).map((i) => ({
          name: text(i.image_name),
          sourceUrl: text(i.source_url),
          providerUrl: text(i.su_url),
          imageId: Number(i.imageid),
          ownImageId: i.pms_imageid ? text(i.pms_imageid) : null,
          associated: i.is_associate === true || i.is_associate === 'true',
        }));
      },
      fieldFor: hotelField,
    },
    input,
  );
}
