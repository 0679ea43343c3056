import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { demoFeature } from '../../src/main/demo/feature';
import { createImageReader } from '../../src/main/photos/imageReader';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';

// The photos the demo's Su holds from the start are drawn when first read: by the image reader's process once the
// photos feature attached it (sharp stays out of the core: the demo's Photos end-to-end test reads the core's memory
// map), and by sharp in the core when the reader refuses (it is closed first as Innkeeper quits).

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.core.close();
  ctx = null;
});
const { call } = contractClient(() => ctx!.core.dispatcher);
const HOTEL = 'IK-DEMO-001';

async function suThumbnails() {
  const images = (await call('photos.reconcile', { hotelId: HOTEL })).atSu!.images;
  expect(images).toHaveLength(3);
  return Promise.all(
    images.map(async (image) => {
      const { dataUrl } = await call('photos.suThumbnail', { hotelId: HOTEL, imageId: image.imageId });
      expect(dataUrl).toMatch(/^data:image\/jpeg;base64,/);
      return sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64')).metadata();
    }),
  );
}

describe('the demo’s first photos at Su', () => {
  it('are drawn by the drawer attached (an image reader in its own process), and shown as Su’s copies', async () => {
    ctx = await startTestCore();
    const drawn: string[] = [];
    const demo = ctx.core.use(demoFeature)!;
    // A reader of the test's own in place of the one the photos feature attached, watched: every drawing goes
    // through it.
    const reader = createImageReader();
    demo.drawPhotosWith((svg) => {
      drawn.push(svg);
      return reader.draw(svg);
    });
    try {
      const thumbs = await suThumbnails();
      expect(thumbs.every((t) => t.format === 'jpeg' && t.width === 480)).toBe(true);
      expect(drawn).toHaveLength(6); // three for each of the demo's two active properties, drawn together
      expect(drawn.every((svg) => svg.startsWith('<svg'))).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it('a reader that refuses (closing): drawn in the core instead, never left as a copy Su could not make', async () => {
    ctx = await startTestCore();
    ctx.core.use(demoFeature)!.drawPhotosWith(() => Promise.reject(new Error('Innkeeper is closing')));
    const thumbs = await suThumbnails();
    expect(thumbs.every((t) => t.format === 'jpeg' && t.width === 480)).toBe(true);
  });
});
