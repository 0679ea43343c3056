import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failEnvelope } from './authRoutes';
import { bearerAuth } from './credentials';
import type { EmulatedProperty, EmulatorState, StoredImage } from './state';
import { fetchImage } from './imageFetch';
import { photosDrawn } from './seedPhotos';
import { array, body as readBody, Invalid, isHttpUrl, isObject, join, string, type Json } from './validate';

/**
 * Endpoints 9–11: image create, association and retrieve. As Su does, the emulator fetches each created image from
 * its url (after answering; see imageFetch.ts) and serves its own copy at `su_url` — re-hosted, not a redirect —
 * which answers 404 while the fetch is pending or when it failed.
 */

const fail = (reply: FastifyReply, shortText: string) => reply.code(400).send(failEnvelope('400', shortText));

/** Reads the hotelid every image call carries: required, at most 20 characters, a known property. */
function hotel(state: EmulatorState, b: Json): EmulatedProperty {
  const hotelid = string(b, 'hotelid', '', { required: true, max: 20 });
  const property = state.property(hotelid);
  if (!property) throw new Invalid('hotelid', `invalid hotel code (${hotelid})`);
  return property;
}

/** Su's public address of its copy, under the main host's prefix (the part of the path before `/jservice`). */
const suUrl = (request: FastifyRequest, imageid: number) => {
  const prefix = request.url.slice(0, Math.max(0, request.url.indexOf('/jservice')));
  return `${request.protocol}://${request.host}${prefix}/su-images/${imageid}`;
};

/** Runs a handler, answering any {@link Invalid} with the main envelope. */
const guarded =
  (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof Invalid) return fail(reply, error.message);
      throw error;
    }
  };

export function registerImageRoutes(app: FastifyInstance, state: EmulatorState): void {
  const auth = { onRequest: bearerAuth(state) };

  // Su's copy of an image: public (channels fetch it), the bytes Su fetched, or 404.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/su-images/:imageid',
    handler: async (request, reply) => {
      const id = Number((request.params as { imageid: string }).imageid);
      await photosDrawn(state);
      const image = [...state.images.values()].flat().find((i) => i.imageid === id);
      const copy = image?.fetch?.state === 'ok' ? image.fetch : null;
      if (!copy?.bytes) return reply.code(404).send({ error: 'no such image' });
      return reply
        .type(copy.contentType ?? 'image/jpeg')
        .header('cache-control', 'public, max-age=86400')
        .send(copy.bytes);
    },
  });

  app.post(
    '/jservice/imageCreate',
    auth,
    guarded(async (request, reply) => {
      const b = readBody(request.body);
      const property = hotel(state, b);
      // Listed as required, yet absent from Su's own published samples: accepted either way (lenient in).
      string(b, 'proppmsid', '', { numbers: true });
      const items = array(b, 'images', '', true);
      if (items.length === 0) throw new Invalid('images', 'must list at least one image');
      const inputs = items.map((item, i) => {
        const at = join('images', i);
        if (!isObject(item)) throw new Invalid(at, 'must be an object');
        const url = string(item, 'url', at, { required: true });
        if (!isHttpUrl(url)) throw new Invalid(join(at, 'url'), 'must be an http or https URL');
        const name = string(item, 'name', at, { required: true });
        return { url, name, pms: string(item, 'pms_imageid', at, { numbers: true }) ?? '' };
      });
      const held = state.images.get(property.hotelid) ?? [];
      state.images.set(property.hotelid, held);
      // Results come in input order; an item with pms_imageid is answered by it, one without by the numeric id.
      const fetches: StoredImage[] = [];
      const data = inputs.map(({ url, name, pms }) => {
        // Sending a pms_imageid again replaces that image's source (the partner's id names one image).
        let image = pms ? held.find((h) => h.pms_imageid === pms) : undefined;
        if (image) Object.assign(image, { source_url: url, image_name: name });
        else {
          image = {
            imageid: state.nextId('image'),
            pms_imageid: pms,
            image_name: name,
            source_url: url,
            property: false,
            rooms: new Set(),
          };
          held.push(image);
        }
        fetches.push(image);
        const common = { image_url: url, su_url: suUrl(request, image.imageid) };
        return pms ? { pms_imageid: pms, ...common } : { imageid: image.imageid, ...common };
      });
      await reply.send({ Status: 'Success', Data: data });
      // Su answers first and fetches afterwards; each image's copy is there once its fetch is done.
      for (const image of fetches) void fetchImage(image, state.now).then(() => state.changed());
      return reply;
    }),
  );

  app.post(
    '/jservice/imageAssociation',
    auth,
    guarded(async (request, reply) => {
      const b = readBody(request.body);
      const property = hotel(state, b);
      const roomid = string(b, 'roomid', '', { numbers: true });
      if (roomid !== undefined && !property.rooms.some((r) => r.roomid === roomid)) {
        throw new Invalid('roomid', `no room ${roomid} in property ${property.hotelid}`);
      }
      const held = state.images.get(property.hotelid) ?? [];
      const items = array(b, 'images', '', true);
      if (items.length === 0) throw new Invalid('images', 'must list at least one image');
      // Every item is resolved before anything changes: an association is applied whole or not at all.
      const images = items.map((item, i) => findImage(held, item, join('images', i)));
      for (const image of images) {
        if (roomid === undefined) image.property = true;
        else image.rooms.add(roomid);
      }
      return reply.send({ Status: 'Success' });
    }),
  );

  app.post(
    '/jservice/imageRetrieve',
    auth,
    guarded(async (request, reply) => {
      const property = hotel(state, readBody(request.body));
      const data = (state.images.get(property.hotelid) ?? []).map((image) => ({
        image_name: image.image_name,
        source_url: image.source_url,
        su_url: suUrl(request, image.imageid),
        imageid: image.imageid,
        pms_imageid: image.pms_imageid,
        is_associate: image.property || image.rooms.size > 0,
      }));
      return reply.send({ Status: 'Success', Data: data });
    }),
  );
}

/** An association item names an image by imageid or pms_imageid (one published field list says pmsimageid). */
function findImage(held: StoredImage[], item: unknown, at: string): StoredImage {
  if (!isObject(item)) throw new Invalid(at, 'must be an object');
  const id = string(item, 'imageid', at, { numbers: true });
  const pms = string(item, 'pms_imageid', at, { numbers: true }) ?? string(item, 'pmsimageid', at, { numbers: true });
  if (id === undefined && pms === undefined) throw new Invalid(at, 'imageid or pms_imageid is required');
  const image = held.find((h) => (id !== undefined ? String(h.imageid) === id : h.pms_imageid === pms));
  if (!image)
    throw new Invalid(at, id !== undefined ? `no image with imageid ${id}` : `no image with pms_imageid ${pms}`);
  return image;
}
