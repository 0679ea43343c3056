import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Photo } from '../../src/shared/photos';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { addPhotoFile } from '../support/photoFile';
import { generatePassword } from '../../src/shared/secretRules';
import { startMailboxProgram } from '../support/mailboxProgram';

// Photos without a tunnel: with a mailbox paired (here the demo's own, the mailbox program in-process on 127.0.0.1),
// the upload copy is handed to the mailbox and Su (the emulator, over real loopback HTTP) fetches it there.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
const { call, dispatch } = contractClient(() => ctx!.core.dispatcher);
const HOTEL = 'IK-DEMO-001';

let program: Awaited<ReturnType<typeof startMailboxProgram>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
  await program?.stop();
  program = null;
});

const addFile = async (fileName: string, bytes: Buffer) =>
  (await addPhotoFile({ call, dispatch }, HOTEL, fileName, bytes)) as { value: Photo };

describe('photos through the mailbox', () => {
  it('Su fetches the upload copy from the mailbox byte for byte; once its copy answers, the address is gone', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    const mailbox = await eventually(
      () => call('mailbox.status'),
      (s) => s.paired && s.connected,
    );
    await eventually(
      () => call('rates.properties', {}),
      (p) => p.length >= 2,
    );
    const added = await addFile(
      'sea view.jpg',
      await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#3a7ca5' } })
        .jpeg()
        .toBuffer(),
    );
    // Where Su fetches photos from: the mailbox, not this computer's listener.
    expect((await call('photos.list', { hotelId: HOTEL })).reach).toEqual({ baseUrl: mailbox.url, reason: null });

    expect(await call('photos.upload', { hotelId: HOTEL })).toMatchObject({ queued: 1 });
    const view = await eventually(
      () => call('photos.list', { hotelId: HOTEL }),
      (v) => v.photos[0]?.upload?.state === 'held',
      20_000,
    );
    const copy = readFileSync(join(ctx.dataDir, 'photos', `${added.value.id}.jpg`));
    // Su's copy is the upload copy, byte for byte.
    const suUrl = view.photos[0]!.upload!.suUrl!;
    expect(Buffer.from(await (await fetch(suUrl)).arrayBuffer()).equals(copy)).toBe(true);

    // Su was given the mailbox's address, and fetched it there.
    const sourceUrl = ctx.demo
      .emulator()!
      .state.images.get(HOTEL)!
      .find((i) => i.pms_imageid === added.value.pmsImageId)!.source_url;
    expect(sourceUrl).toMatch(new RegExp(`^${mailbox.url}/media/[0-9a-f]{32}/[0-9a-f]{12}-sea-view\\.jpg$`));
    const link = ctx.core.db.db.prepare('SELECT token, mailbox_name FROM media_links').get() as {
      token: string;
      mailbox_name: string;
    };
    expect(sourceUrl.endsWith(`/${link.mailbox_name}`)).toBe(true);
    // This computer's listener does not serve it.
    const listener = (await call('intake.status', {})).localUrl!.replace(/\/push$/, '');
    expect((await fetch(`${listener}/media/${link.token}/sea-view.jpg`)).status).toBe(404);

    // Su's copy answers: the address is revoked here and deleted at the mailbox, which answers 404 from then on.
    await eventually(
      async () =>
        ctx!.core.db.db.prepare('SELECT revoked_at, mailbox_cleared_at FROM media_links').get() as {
          revoked_at: number | null;
          mailbox_cleared_at: number | null;
        },
      (row) => row.revoked_at !== null && row.mailbox_cleared_at !== null,
      20_000,
    );
    expect((await fetch(sourceUrl)).status).toBe(404);
    expect(ctx.demo.mailbox.running()!.store.db.prepare('SELECT count(*) AS n FROM media').get()).toEqual({ n: 0 });
  }, 60_000);
});

describe('a mailbox that does not take the photo', () => {
  it('keeps the upload in the outbox with the reason, and the address it was to have is revoked', async () => {
    ctx = await startTestCore({ demoRun: { deliveries: false, mailbox: true } });
    const mailbox = await eventually(
      () => call('mailbox.status'),
      (s) => s.paired && s.connected,
    );
    await eventually(
      () => call('rates.properties', {}),
      (p) => p.length >= 2,
    );
    await addFile(
      'garden.jpg',
      await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#5a8a3a' } })
        .jpeg()
        .toBuffer(),
    );
    // The mailbox stops answering (still paired here).
    await ctx.demo.mailbox.running()!.close();
    expect(await call('photos.upload', { hotelId: HOTEL })).toMatchObject({
      queued: 1,
      reach: { baseUrl: mailbox.url },
    });
    const view = await eventually(
      () => call('photos.list', { hotelId: HOTEL }),
      (v) => v.photos[0]?.upload?.error != null,
      20_000,
    );
    const upload = view.photos[0]!.upload!;
    expect(['queued', 'failed']).toContain(upload.state);
    expect(upload.error?.message).toMatch(/^Su cannot fetch the photos: your mailbox did not take “garden” \(/);
    // Nothing went to Su, and the address it was to have is revoked (deleted at the mailbox once it answers again).
    expect(
      ctx.demo
        .emulator()!
        .state.images.get(HOTEL)
        ?.some((i) => i.image_name === 'garden') ?? false,
    ).toBe(false);
    const link = ctx.core.db.db.prepare('SELECT token, revoked_at, mailbox_name FROM media_links').get() as {
      token: string;
      revoked_at: number | null;
      mailbox_name: string | null;
    };
    expect(link.revoked_at).not.toBeNull();
    expect(link.mailbox_name).not.toBeNull();
  }, 60_000);
});

describe('the mailbox program, in its own process', () => {
  it('serves the photo to Su byte for byte, and deletes it once Su has its copy', async () => {
    program = await startMailboxProgram();
    ctx = await startTestCore({
      coreOptions: {
        intakeEnv: { port: 0, username: 'su-photos', password: generatePassword() },
        mailboxEnv: { url: program.url, code: program.code! },
      },
    });
    await eventually(
      () => call('mailbox.status'),
      (s) => s.paired && s.connected,
      20_000,
    );
    await eventually(
      () => call('rates.properties', {}),
      (p) => p.length >= 2,
    );
    const added = await addFile(
      'breakfast room.jpg',
      await sharp({ create: { width: 1400, height: 900, channels: 3, background: '#a5653a' } })
        .jpeg()
        .toBuffer(),
    );
    expect((await call('photos.list', { hotelId: HOTEL })).reach.baseUrl).toBe(program.url);
    await call('photos.upload', { hotelId: HOTEL });
    const view = await eventually(
      () => call('photos.list', { hotelId: HOTEL }),
      (v) => v.photos[0]?.upload?.state === 'held',
      20_000,
    );
    const copy = readFileSync(join(ctx.dataDir, 'photos', `${added.value.id}.jpg`));
    const suCopy = Buffer.from(await (await fetch(view.photos[0]!.upload!.suUrl!)).arrayBuffer());
    expect(suCopy.equals(copy)).toBe(true);
    const sourceUrl = ctx
      .emulator()!
      .state.images.get(HOTEL)!
      .find((i) => i.pms_imageid === added.value.pmsImageId)!.source_url;
    expect(sourceUrl.startsWith(`${program.url}/media/`)).toBe(true);

    // Su's copy answers: deleted at the mailbox, its file gone from the mailbox's data folder.
    await eventually(
      async () => (await fetch(sourceUrl)).status,
      (status) => status === 404,
      20_000,
    );
    const mediaFiles = await eventually(
      async () => readdirSync(join(program!.dataDir, 'media')),
      (files) => files.length === 0,
    );
    expect(mediaFiles).toEqual([]);
    await call('mailbox.unpair', {});
    // Without a mailbox, the photos are served by this computer's listener again.
    expect((await call('photos.list', { hotelId: HOTEL })).reach.baseUrl).not.toBe(program.url);
  }, 90_000);
});
