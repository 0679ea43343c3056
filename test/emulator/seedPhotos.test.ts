import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { photosDrawingStarted } from '../../src/emulator/seedPhotos';

/** The demo's photos already held at Su: there from the start, drawn when first read, never served half-made. */
describe('seeded photos', () => {
  let emulator: RunningEmulator | null = null;
  afterEach(async () => {
    await emulator?.close();
    emulator = null;
  });
  const seeded = (e: RunningEmulator) => [...e.state.images.values()].flat();

  it('are listed at once, and the start does not wait for their bytes to be drawn', async () => {
    emulator = await startEmulator({ seedPhotos: true });
    const images = seeded(emulator);
    expect(images.length).toBeGreaterThanOrEqual(3);
    expect(images.every((i) => i.fetch?.state === 'ok')).toBe(true);
    // Drawn when first read: not during the start.
    expect(images.every((i) => i.fetch?.bytes === null)).toBe(true);
  });

  it('are not drawn while nothing reads them (sharp, libvips and its fonts stay out of an idle core)', async () => {
    emulator = await startEmulator({ seedPhotos: true });
    // Longer than the emulator ever waited before drawing them on its own (2 s after its start, until bench:idle
    // showed what that drawing keeps in memory); a timer set after the start fires after any the start set.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(photosDrawingStarted(emulator.state)).toBe(false);
    expect(seeded(emulator).every((i) => i.fetch?.bytes === null)).toBe(true);
    await fetch(`${emulator.mainUrl}/su-images/${seeded(emulator)[0]!.imageid}`);
    expect(photosDrawingStarted(emulator.state)).toBe(true);
  });

  it('are served as JPEGs by the first request for them, which waits for the drawing', async () => {
    emulator = await startEmulator({ seedPhotos: true });
    const image = seeded(emulator)[0]!;
    const response = await fetch(`${emulator.mainUrl}/su-images/${image.imageid}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(bytes.length).toBeGreaterThan(10_000);
  });

  it('report their sizes on the control API once drawn', async () => {
    emulator = await startEmulator({ seedPhotos: true });
    const hotelid = [...emulator.state.images.keys()][0]!;
    const response = await fetch(`${emulator.controlUrl}/content?hotelid=${hotelid}`, {
      headers: { authorization: `Bearer ${emulator.controlToken}` },
    });
    const content = (await response.json()) as { images: { fetch: { state: string; bytes: number } }[] };
    expect(content.images.length).toBe(3);
    for (const image of content.images) {
      expect(image.fetch.state).toBe('ok');
      expect(image.fetch.bytes).toBeGreaterThan(10_000);
    }
  });

  it('an emulator stopped right after its start closes without drawing them', async () => {
    const stopped = await startEmulator({ seedPhotos: true });
    await stopped.close();
    expect(seeded(stopped).every((i) => i.fetch?.bytes === null)).toBe(true);
  });
});
