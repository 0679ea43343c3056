import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, startApp, stopApp, test } from './app';
import { connectTo } from './connect';
import { startTestEmulator } from './deliveries';
import { saveRatesSetup } from './ratesSetup';
import { drop } from './photoDrop';

const shots = 'test-results/screenshots';
const HOTEL = 'IK-DEMO-001';

/** Three photos as an owner has them: two good ones and one far too small for Booking.com. */
async function ownersPhotos() {
  const make = (width: number, height: number, colour: string) =>
    sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg({ quality: 90 })
      .toBuffer();
  return [
    { name: 'front-door.jpg', width: 1600, height: 1067, bytes: await make(1600, 1067, '#6a8caf') },
    { name: 'double-room.jpg', width: 1200, height: 800, bytes: await make(1200, 800, '#c9a26b') },
    { name: 'tiny-logo.jpg', width: 250, height: 200, bytes: await make(250, 200, '#aa3344') },
  ];
}

test('photos dropped, captioned and assigned are uploaded while Su is away and once it is back; Su re-hosts them', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const su = await startTestEmulator();
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await connectTo(page, app, su.port, 'Rates & availability');
    await page.getByTestId('rates-empty').getByRole('button', { name: 'Set up a property' }).click();
    await saveRatesSetup(page, {
      id: HOTEL,
      name: 'Harbour View Guesthouse',
      roomId: 'DBL',
      roomName: 'Double Room',
      rateId: 'BAR',
    });

    await page.goto(`${app.url}#/property/${HOTEL}/photos`);
    await expect(page.getByTestId('photos-tab')).toBeVisible();
    const files = await ownersPhotos();
    await drop(page, files);
    await expect(page.getByTestId('photo-card')).toHaveCount(3);
    const tiny = page.getByTestId('photo-card').filter({ hasText: '250×200' });
    await expect(tiny.getByTestId('photo-mark').first()).toContainText('Booking.com');
    await expect(page.getByTestId('photo-checks')).toContainText('Airbnb');

    // Captions as the owner wants them; the room photo goes to the Double Room only.
    const cards = page.getByTestId('photo-card');
    const captions = ['Front door', 'Double room', 'Logo'];
    for (const [i, caption] of captions.entries()) {
      const input = cards.filter({ hasText: `${files[i]!.width}×${files[i]!.height}` }).getByTestId('photo-caption');
      await input.fill(caption);
      await input.press('Tab');
    }
    const room = cards.filter({ hasText: '1200×800' });
    await room.getByTestId('photo-assignments').click();
    await page.getByRole('option', { name: 'The property' }).click();
    await page.getByRole('option', { name: /Double Room/ }).click();
    await page.keyboard.press('Escape');
    await expect(room.getByTestId('photo-assignments')).toContainText('Double Room');
    await page.screenshot({ path: `${shots}/photos-grid.png`, animations: 'disabled', fullPage: true });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/photos-grid-1024.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Su goes away: the upload waits in the outbox.
    await su.stop();
    await page.getByTestId('photos-upload').click();
    for (const state of await cards.getByTestId('photo-upload-state').all())
      await expect(state).toHaveAttribute('data-state', /^(queued|sending)$/);
    await page.screenshot({ path: `${shots}/photos-upload-waiting.png`, animations: 'disabled', fullPage: true });

    // Back: the photos go out by themselves, Su fetches each from this computer and holds its own copy.
    await su.start();
    for (const caption of captions)
      await expect(
        cards
          .filter({ has: page.locator(`[data-testid="photo-caption"][value="${caption}"]`) })
          .getByTestId('photo-upload-state'),
      ).toHaveAttribute('data-state', 'held', { timeout: 90_000 });
    await page.screenshot({ path: `${shots}/photos-held.png`, animations: 'disabled', fullPage: true });

    const held = (await su.control().content(HOTEL)).images as {
      image_name: string;
      imageid: number;
      pms_imageid: string;
      property: boolean;
      rooms: string[];
    }[];
    expect(held.map((i) => i.image_name).sort()).toEqual([...captions].sort());
    expect(held.find((i) => i.image_name === 'Double room')).toMatchObject({ property: false, rooms: ['DBL'] });
    expect(held.find((i) => i.image_name === 'Front door')).toMatchObject({ property: true, rooms: [] });
    const library = new DatabaseSync(join(app.dataDir, 'innkeeper.db'), { readOnly: true });
    try {
      for (const image of held) {
        const copy = Buffer.from(
          await (await fetch(`http://127.0.0.1:${su.port}/SUAPI/su-images/${image.imageid}`)).arrayBuffer(),
        );
        // Su's copy is the app's upload copy, byte for byte…
        const { id } = library.prepare('SELECT id FROM photos WHERE pms_image_id = ?').get(image.pms_imageid) as {
          id: number;
        };
        expect(copy.equals(readFileSync(join(app.dataDir, 'photos', `${id}.jpg`)))).toBe(true);
        // …and shows the photo that was dropped: the same size and colour.
        const dropped = files[captions.indexOf(image.image_name)]!;
        const meta = await sharp(copy).metadata();
        expect([meta.width, meta.height]).toEqual([dropped.width, dropped.height]);
        const [a, b] = await Promise.all([sharp(copy).stats(), sharp(dropped.bytes).stats()]);
        a.channels.forEach((channel, n) => expect(Math.abs(channel.mean - b.channels[n]!.mean)).toBeLessThan(3));
      }
    } finally {
      library.close();
    }
  } finally {
    await stopApp(app);
    await su.stop();
  }
});

test('on the demo, the Photos tab shows what Su already holds and the checks from the first start', async ({
  page,
}) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/property/${HOTEL}/photos`);
    await expect(page.getByTestId('photos-tab')).toBeVisible();
    await page.getByTestId('photos-reconcile').click();
    await expect(page.getByTestId('photos-at-su-row')).toHaveCount(3);
    await expect(page.getByTestId('photo-checks')).toContainText('Airbnb');
    // Su's copies are drawn (the demo's Su makes their bytes when first read) and shown, and sharp never loaded into
    // the core for it: the image reader's process drew them. (Loaded once, libvips stays mapped in a process.)
    const thumbs = page.getByTestId('photos-at-su-row').locator('.thumb');
    for (let i = 0; i < 3; i++) await expect(thumbs.nth(i)).toHaveAttribute('data-state', 'ready');
    expect(readFileSync(`/proc/${app.process.pid}/maps`, 'utf8')).not.toMatch(/libvips|sharp-/);
    await page.screenshot({ path: `${shots}/photos-demo.png`, animations: 'disabled', fullPage: true });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/photos-demo-1024.png`, animations: 'disabled' });
  } finally {
    await stopApp(app);
  }
});
