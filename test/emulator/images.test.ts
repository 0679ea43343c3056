import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { fixtureText } from '../support/fixtures';
import { createEmulatorControl } from '../../src/emulator/controlClient';

/** Endpoints 9–11 (images) and 12 (notifications). */
describe('images', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness();
  });
  afterEach(() => h.close());

  const createSample = { ...JSON.parse(fixtureText('image-create-request.json')), hotelid: 'IK-DEMO-001' };
  type Created = { Data: { imageid?: number; pms_imageid?: string; image_url: string; su_url: string }[] };
  type Retrieved = {
    Data: {
      image_name: string;
      source_url: string;
      su_url: string;
      imageid: number;
      pms_imageid: string;
      is_associate: boolean;
    }[];
  };

  it('create answers in input order: pms_imageid when given, the numeric imageid when not', async () => {
    const answer = await h.main<Created>('imageCreate', createSample);
    expect(answer.status).toBe(200);
    const [first, second] = answer.body.Data;
    expect(first).toEqual({
      pms_imageid: '2222',
      image_url: 'https://images.example.com/p103/roadblue.jpg',
      su_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/SUAPI\/su-images\/\d+$/),
    });
    expect(second).toEqual({
      imageid: expect.any(Number),
      image_url: 'https://images.example.com/p103/bsky.jpg',
      su_url: expect.any(String),
    });
    expect(Object.keys(first!)).not.toContain('imageid');
  });

  it('fetches each created image from its url and serves its own copy at su_url, not a redirect', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array.from({ length: 64 }, (_, i) => i), 0xff, 0xd9]);
    const served: string[] = [];
    const source = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    try {
      // Su's own published sample has no proppmsid: accepted (lenient in).
      const answer = await h.main<Created>('imageCreate', {
        hotelid: 'IK-DEMO-001',
        images: [
          { url: `${base}/photo.jpg`, name: 'Garden', pms_imageid: 'ok-1' },
          { url: `${base}/page.html`, name: 'Not a photo', pms_imageid: 'html-1' },
          { url: `${base}/gone.jpg`, name: 'Gone', pms_imageid: 'gone-1' },
        ],
      });
      expect(answer.status).toBe(200);
      const [ok, html, gone] = answer.body.Data;
      const control = createEmulatorControl(h.emulator);
      type Held = { pms_imageid: string; fetch: { state: string; error: string | null; bytes: number } | null };
      const held = async () => (await control.content('IK-DEMO-001')).images as Held[];
      const settled = async () => {
        for (let i = 0; i < 200; i++) {
          const images = await held();
          if (images.every((img) => img.fetch?.state !== 'pending')) return images;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error('the fetches did not settle');
      };
      const images = await settled();
      expect(served.sort()).toEqual(['/gone.jpg', '/page.html', '/photo.jpg']);
      const byId = (id: string) => images.find((i) => i.pms_imageid === id)!.fetch!;
      expect(byId('ok-1')).toMatchObject({ state: 'ok', bytes: jpeg.length });
      expect(byId('html-1')).toMatchObject({ state: 'failed', error: expect.stringMatching(/not an image/) });
      expect(byId('gone-1')).toMatchObject({ state: 'failed', error: expect.stringMatching(/HTTP 404/) });

      const copy = await fetch(ok!.su_url, { redirect: 'manual' });
      expect(copy.status).toBe(200);
      expect(copy.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await copy.arrayBuffer()).equals(jpeg)).toBe(true);
      // Re-hosted: the source may go away, Su's copy stays.
      await new Promise<void>((resolve) => source.close(() => resolve()));
      expect((await fetch(ok!.su_url)).status).toBe(200);
      for (const failed of [html!, gone!]) expect((await fetch(failed.su_url)).status).toBe(404);
    } finally {
      source.close();
    }
  });

  it('retrieve lists every image with is_associate false until associated, per property or per room', async () => {
    const created = (await h.main<Created>('imageCreate', createSample)).body.Data;
    const before = (await h.main<Retrieved>('imageRetrieve', { hotelid: 'IK-DEMO-001' })).body;
    expect(before).toMatchObject({ Status: 'Success' });
    expect(before.Data).toEqual([
      {
        image_name: 'road blue',
        source_url: 'https://images.example.com/p103/roadblue.jpg',
        su_url: expect.any(String),
        imageid: expect.any(Number),
        pms_imageid: '2222',
        is_associate: false,
      },
      {
        image_name: 'b sky',
        source_url: 'https://images.example.com/p103/bsky.jpg',
        su_url: expect.any(String),
        imageid: created[1]!.imageid,
        pms_imageid: '',
        is_associate: false,
      },
    ]);
    // The published room association sample names one image by pms_imageid and one by imageid.
    const associate = { hotelid: 'IK-DEMO-001', roomid: 'DBL', images: [{ pms_imageid: '2222' }] };
    expect(await h.main('imageAssociation', associate)).toMatchObject({
      status: 200,
      body: JSON.parse(fixtureText('image-associate-response.json')),
    });
    let after = (await h.main<Retrieved>('imageRetrieve', { hotelid: 'IK-DEMO-001' })).body.Data;
    expect(after.map((i) => i.is_associate)).toEqual([true, false]);
    await h.main('imageAssociation', { hotelid: 'IK-DEMO-001', images: [{ imageid: String(created[1]!.imageid) }] });
    after = (await h.main<Retrieved>('imageRetrieve', { hotelid: 'IK-DEMO-001' })).body.Data;
    expect(after.map((i) => i.is_associate)).toEqual([true, true]);
    const content = (await (await createEmulatorControl(h.emulator).raw(`/content?hotelid=IK-DEMO-001`)).json()) as {
      images: { property: boolean; rooms: string[] }[];
    };
    expect(content.images.map((i) => [i.property, i.rooms])).toEqual([
      [false, ['DBL']],
      [true, []],
    ]);
  });

  it('images are kept per property', async () => {
    await h.main('imageCreate', createSample);
    expect((await h.main<Retrieved>('imageRetrieve', { hotelid: 'IK-DEMO-002' })).body).toEqual({
      Status: 'Success',
      Data: [],
    });
  });

  it('creating with a pms_imageid again replaces that image rather than adding one', async () => {
    await h.main('imageCreate', createSample);
    const again = {
      hotelid: 'IK-DEMO-001',
      proppmsid: 'PMS-1',
      images: [{ url: 'https://images.example.com/new.jpg', name: 'new', pms_imageid: '2222' }],
    };
    await h.main('imageCreate', again);
    const data = (await h.main<Retrieved>('imageRetrieve', { hotelid: 'IK-DEMO-001' })).body.Data;
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({
      pms_imageid: '2222',
      source_url: 'https://images.example.com/new.jpg',
      image_name: 'new',
    });
  });

  it('every image endpoint refuses a hotelid over 20 characters', async () => {
    const hotelid = 'H'.repeat(21);
    for (const [path, body] of [
      ['imageCreate', { ...createSample, hotelid }],
      ['imageAssociation', { hotelid, images: [{ imageid: 1 }] }],
      ['imageRetrieve', { hotelid }],
    ] as const) {
      expect(await h.main(path, body), path).toMatchObject({
        status: 400,
        body: {
          Status: 'Fail',
          Errors: [{ Code: '400', ShortText: 'hotelid: must be at most 20 characters (got 21)' }],
        },
      });
    }
  });

  it.each([
    ['imageCreate', { ...createSample, hotelid: 'NOPE' }, 'hotelid: invalid hotel code (NOPE)'],
    ['imageCreate', { ...createSample, images: [] }, 'images: must list at least one image'],
    ['imageCreate', { ...createSample, images: [{ name: 'x' }] }, 'images[0].url: is required'],
    [
      'imageCreate',
      { ...createSample, images: [{ url: 'ftp://x/y.jpg', name: 'x' }] },
      'images[0].url: must be an http or https URL',
    ],
    [
      'imageAssociation',
      { hotelid: 'IK-DEMO-001', images: [{ imageid: 424242 }] },
      'images[0]: no image with imageid 424242',
    ],
    ['imageAssociation', { hotelid: 'IK-DEMO-001', images: [{}] }, 'images[0]: imageid or pms_imageid is required'],
    [
      'imageAssociation',
      { hotelid: 'IK-DEMO-001', roomid: 'LOFT', images: [{ imageid: 1 }] },
      'roomid: no room LOFT in property IK-DEMO-001',
    ],
    ['imageRetrieve', {}, 'hotelid: is required'],
  ])('%s refuses %j', async (path, body, shortText) => {
    expect(await h.main(path, body)).toMatchObject({
      status: 400,
      body: { Status: 'Fail', Errors: [{ Code: '400', ShortText: shortText }] },
    });
  });
});

describe('notifications (notificationAB)', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness();
  });
  afterEach(() => h.close());

  it('answers one element per connected channel-244 account, keyed by account id', async () => {
    const answer = await h.notifications<unknown[]>({ hotelid: 'IK-DEMO-001' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        status: 'Success',
        data: {
          '80412233': [
            expect.objectContaining({
              notification_id: 'ntf-1001',
              notification_type: 'LISTING_QUALITY',
              title: expect.any(String),
              subtitle: expect.any(String),
              cta_url: expect.stringMatching(/^https:/),
            }),
            expect.objectContaining({ notification_id: 'ntf-1002' }),
          ],
        },
      },
      { status: 'Success', data: { '80412290': [] } },
    ]);
  });

  it('a failing account answers status Fail with a message, beside the others', async () => {
    const control = (body: unknown) =>
      createEmulatorControl(h.emulator).raw(`/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await control({
      hotelid: 'IK-DEMO-001',
      account: '80412290',
      failure: 'Account disconnected',
      notification: { title: 'New' },
    });
    const answer = await h.notifications<unknown[]>({ hotelid: 'IK-DEMO-001' });
    expect(answer.body[1]).toEqual({ status: 'Fail', message: 'Account disconnected', data: { '80412290': [] } });
    await control({ hotelid: 'IK-DEMO-001', account: '80412290', failure: null });
    const recovered = await h.notifications<{ data: Record<string, { title: string }[]> }[]>({
      hotelid: 'IK-DEMO-001',
    });
    expect(recovered.body[1]).toMatchObject({ status: 'Success', data: { '80412290': [{ title: 'New' }] } });
  });

  it('an unknown or missing hotel fails for the whole call with code 400', async () => {
    expect(await h.notifications({ hotelid: 'NOPE' })).toMatchObject({
      status: 400,
      body: { Status: 'Fail', Errors: [{ Code: '400', ShortText: 'invalid hotel code (NOPE)' }] },
    });
    expect(await h.notifications({})).toMatchObject({
      status: 400,
      body: { Status: 'Fail', Errors: [{ Code: '400' }] },
    });
  });
});
