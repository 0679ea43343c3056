import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import type { Photo } from '../../src/shared/photos';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { addPhotoFile } from '../support/photoFile';
import { tempDir } from '../support/tempDir';

// The demo provider keeps what it holds in the data folder: after a restart of the app on the same folder, what Su
// holds, the payments' status and the links the owner was given all agree with what was done before — on the same
// port, and on another one when that port is taken meanwhile (the app's stored addresses follow it).

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
let other: Server | null = null;
const client = contractClient(() => ctx!.core.dispatcher);
const { call } = client;
const HOTEL = 'IK-DEMO-001';
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  other = null;
});

const portOf = (url: string) => Number(new URL(url).port);

async function start(dataDir: string) {
  ctx = await startTestCore({ dataDir });
  await eventually(
    () => call('payments.list', {}),
    (v) => v.partners.length === 2,
  );
}
/** The app quits (its data folder stays) and starts again on it. */
async function restart(before?: () => Promise<void>) {
  const { dataDir } = ctx!;
  await ctx!.core.close();
  ctx = null;
  await before?.();
  await start(dataDir);
}

async function addPhoto(fileName: string): Promise<Photo> {
  const bytes = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#4a7c59' } })
    .jpeg()
    .toBuffer();
  const added = await addPhotoFile(client, HOTEL, fileName, bytes);
  if (!added.ok) throw new Error(added.error.message);
  return added.value;
}

/** What the owner did on the demo: a photo uploaded and held, a link paid, one still open, a card-details link. */
async function ownerWorks() {
  const photo = await addPhoto('garden.jpg');
  await call('photos.upload', { hotelId: HOTEL });
  await eventually(
    () => call('photos.list', { hotelId: HOTEL }),
    (v) => v.photos.every((p) => p.upload?.state === 'held' && p.associations.every((a) => a.state === 'sent')),
  );
  const atSu = (await call('photos.reconcile', { hotelId: HOTEL })).atSu!.images;
  expect(atSu).toHaveLength(4);

  const link = async (order_id: string) => {
    const made = await call('payments.createLink', { hotelId: HOTEL, amount: '80', currency_code: 'EUR', order_id });
    expect(made.error).toBeNull();
    return made.link;
  };
  const paid = await link('RESTART-PAID');
  expect(await call('demo.deliver', { kind: 'payment', transactionId: paid.transactionId! })).toMatchObject({
    acknowledged: true,
  });
  expect(await call('payments.checkNow', { id: paid.id })).toMatchObject({ status: 'paid', checkError: null });
  const open = await link('RESTART-OPEN');
  const widget = await call('payments.createWidget', { hotelId: HOTEL, booking_id: 'BK-4711', is_button: false });
  expect(widget.error).toBeNull();
  const widgetPaid = await call('demo.deliver', { kind: 'payment', transactionId: widget.link.transactionId! });
  expect(widgetPaid.summary).toBe('The guest entered their card details for booking BK-4711.');
  return { photo, atSu, paid, open, widget: widget.link };
}

/** After the restart: what Su holds, the links and their status are what they were. */
async function agrees(before: Awaited<ReturnType<typeof ownerWorks>>) {
  // The photo still says held, and Su still holds it (and the demo's own three), with the same ids.
  const view = await call('photos.list', { hotelId: HOTEL });
  expect(view.photos.map((p) => [p.id, p.upload?.state])).toEqual([[before.photo.id, 'held']]);
  // The list kept from before the restart answers as it is (its addresses work)...
  for (const image of view.atSu!.images) {
    expect((await call('photos.suThumbnail', { hotelId: HOTEL, imageId: image.imageId })).dataUrl).toMatch(
      /^data:image\/jpeg;base64,/,
    );
  }
  // ...and "Check what Su holds" says the same.
  const atSu = (await call('photos.reconcile', { hotelId: HOTEL })).atSu!.images;
  expect(atSu.map((i) => [i.imageId, i.name, i.photoId, i.associated])).toEqual(
    before.atSu.map((i) => [i.imageId, i.name, i.photoId, i.associated]),
  );
  const mine = atSu.find((i) => i.photoId === before.photo.id)!;
  const served = Buffer.from(await (await fetch(mine.suUrl)).arrayBuffer());
  expect(served.equals(readFileSync(join(ctx!.dataDir, 'photos', `${before.photo.id}.jpg`)))).toBe(true);

  // Check now: the paid link is still paid, the open one still open, and neither check fails.
  expect(await call('payments.checkNow', { id: before.paid.id })).toMatchObject({ status: 'paid', checkError: null });
  expect(await call('payments.checkNow', { id: before.open.id })).toMatchObject({
    status: 'requested',
    checkError: null,
  });
  expect(await call('payments.checkNow', { id: before.widget.id })).toMatchObject({
    status: 'paid',
    checkError: null,
  });
  // Every link the owner was given opens the payment page of its transaction.
  const { links } = await call('payments.list', {});
  const page = async (id: number) => {
    const url = links.find((l) => l.id === id)!.url!;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return response.text();
  };
  expect(await page(before.paid.id)).toContain('Payment received');
  expect(await page(before.open.id)).toContain('80.00 EUR');
  expect(await page(before.widget.id)).toContain('Payment received');
  return links;
}

describe('the demo after a restart', () => {
  it('comes back on its port with everything it held: photos, payments, links', async () => {
    await start(tempDir().path);
    const before = await ownerWorks();
    const port = portOf(ctx!.emulator().mainUrl);
    const record = (await createEmulatorControl(ctx!.emulator()).content(HOTEL)).propertyRecord;

    await restart();
    expect(portOf(ctx!.emulator().mainUrl)).toBe(port);
    const links = await agrees(before);
    expect(links.find((l) => l.id === before.open.id)!.url).toBe(before.open.url);
    expect((await createEmulatorControl(ctx!.emulator()).content(HOTEL)).propertyRecord).toEqual(record);
    // Nothing failed in the outbox for having been done before (the demo's own property work went out once).
    expect(await call('outbox.status', {})).toMatchObject({ failed: 0 });
  });

  it('on another port when its own is taken, and every address the app kept follows it', async () => {
    await start(tempDir().path);
    const before = await ownerWorks();
    const port = portOf(ctx!.emulator().mainUrl);

    await restart(async () => {
      other = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => other!.listen(port, '127.0.0.1', resolve));
    });
    const moved = portOf(ctx!.emulator().mainUrl);
    expect(moved).not.toBe(port);
    const links = await agrees(before);
    for (const link of links.filter((l) => l.url)) expect(portOf(link.url!)).toBe(moved);
    const upload = (await call('photos.list', { hotelId: HOTEL })).photos[0]!.upload!;
    expect(portOf(upload.suUrl!)).toBe(moved);

    // Its port is free again: the next start takes the one it had last, and the addresses stay right.
    await new Promise((resolve) => other!.close(resolve));
    other = null;
    await restart();
    expect(portOf(ctx!.emulator().mainUrl)).toBe(moved);
    await agrees(before);
  });
});
