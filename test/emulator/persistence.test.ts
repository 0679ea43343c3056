import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { clientIdFromDomain } from '../../src/shared/clientId';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { eventually } from '../support/eventually';
import { startPortChild } from '../support/portChild';
import { tempDir } from '../support/tempDir';

// The emulator's state in a file (the demo provider's): restored whole at the next start, and never lost or left
// half-written by a process killed in the middle of a write. Without the option it keeps nothing.

let emulator: RunningEmulator | null = null;
let source: Server | null = null;
afterEach(async () => {
  await emulator?.close();
  emulator = null;
  await new Promise((resolve) => (source ? source.close(resolve) : resolve(undefined)));
  source = null;
});

const paymentHeaders = {
  'content-type': 'application/json',
  'x-api-name': DEMO_CREDENTIALS.paymentApiName,
  'x-api-key': DEMO_CREDENTIALS.paymentApiKey,
};
const paycard = (base: string, order_id: string) =>
  fetch(`${base}/service/api/paycard`, {
    method: 'POST',
    headers: paymentHeaders,
    body: JSON.stringify({ partner_id: 'IK-PARTNER-01', amount: '25.00', currency_code: 'EUR', order_id }),
  });
const status = async (base: string, transaction_id: string) =>
  (await (
    await fetch(`${base}/service/api/transactionstatus`, {
      method: 'POST',
      headers: paymentHeaders,
      body: JSON.stringify({ partner_id: 'IK-PARTNER-01', transaction_id }),
    })
  ).json()) as { Status: string; ErrorMessages: string[]; transaction_details?: { status: string } };

async function token(e: RunningEmulator): Promise<string> {
  const response = await fetch(`${e.mainUrl}/jservice/auth/generate-access-token`, {
    headers: {
      'client-id': clientIdFromDomain(DEMO_CREDENTIALS.domain),
      'client-secret': DEMO_CREDENTIALS.clientSecret,
    },
  });
  return ((await response.json()) as { Data: { token: string } }).Data.token;
}

describe('the emulator’s state file', () => {
  it('brings back what it held: images and their bytes, payments, tokens; ids go on from where they were', async () => {
    const file = join(tempDir().path, 'su.sqlite');
    const jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#aa6633' } })
      .jpeg()
      .toBuffer();
    source = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
    await new Promise<void>((resolve) => source!.listen(0, '127.0.0.1', resolve));
    const sourceUrl = `http://127.0.0.1:${(source.address() as { port: number }).port}/house.jpg`;

    emulator = await startEmulator({ stateFile: file, seedPhotos: true });
    const bearer = await token(emulator);
    const created = (await (
      await fetch(`${emulator.mainUrl}/jservice/imageCreate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({
          hotelid: 'IK-DEMO-001',
          images: [{ url: sourceUrl, name: 'House', pms_imageid: 'ik-house' }],
        }),
      })
    ).json()) as { Data: { su_url: string }[] };
    const suUrl = created.Data[0]!.su_url;
    await eventually(
      () => fetch(suUrl).then((r) => r.status),
      (s) => s === 200,
    );
    const made = (await (await paycard(emulator.tokenUrl, 'KEEP-1')).json()) as { transaction_id: string };
    const imagesBefore = [...emulator.state.images.values()].flat().map((i) => i.imageid);
    await emulator.close();

    emulator = await startEmulator({ stateFile: file, seedPhotos: true });
    // The same images (the seeded ones are not added again), the copy's bytes as fetched.
    expect([...emulator.state.images.values()].flat().map((i) => i.imageid)).toEqual(imagesBefore);
    const served = await fetch(suUrl.replace(/^http:\/\/[^/]+/, new URL(emulator.mainUrl).origin));
    expect(Buffer.from(await served.arrayBuffer()).equals(jpeg)).toBe(true);
    // The transaction is known, its order id still used; the token still valid.
    expect((await status(emulator.tokenUrl, made.transaction_id)).transaction_details?.status).toBe('Pending');
    expect(await (await paycard(emulator.tokenUrl, 'KEEP-1')).json()).toMatchObject({
      ErrorMessages: ['order_id : already used'],
    });
    const retrieve = await fetch(`${emulator.mainUrl}/jservice/imageRetrieve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ hotelid: 'IK-DEMO-001' }),
    });
    expect(retrieve.status).toBe(200);
    // A new image gets an id no image had.
    expect(emulator.state.nextId('image')).toBeGreaterThan(Math.max(...imagesBefore));
  });

  it('without the option nothing is kept: every start is new', async () => {
    const dir = tempDir().path;
    emulator = await startEmulator({});
    const made = (await (await paycard(emulator.tokenUrl, 'GONE-1')).json()) as { transaction_id: string };
    await emulator.close();
    emulator = await startEmulator({});
    expect(await status(emulator.tokenUrl, made.transaction_id)).toMatchObject({
      ErrorMessages: ['transaction_id : invalid'],
    });
    expect(existsSync(join(dir, 'su.sqlite'))).toBe(false);
  });

  it('a process killed while it writes loses nothing it answered, and the file opens whole', async () => {
    const file = join(tempDir().path, 'su.sqlite');
    const { child, port, exited } = await startPortChild('emulatorStateChild.ts', [file]);
    const base = `http://127.0.0.1:${port}/token`;
    const answered: string[] = [];
    let next = 0;
    let dead = false;
    // 8 senders make payment links one after another; the process is killed after 60 answers, mid-stream.
    const sender = async () => {
      while (!dead) {
        try {
          const response = await paycard(base, `CRASH-${next++}`);
          const body = (await response.json()) as { transaction_id: string };
          answered.push(body.transaction_id);
          if (answered.length === 60) child.kill('SIGKILL');
        } catch {
          dead = true; // the connection died with the process: this one was not answered
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(await exited).toBe('SIGKILL');
    expect(answered.length).toBeGreaterThanOrEqual(60);

    emulator = await startEmulator({ stateFile: file });
    for (const id of answered) expect(emulator.state.transactions.has(id)).toBe(true);
  });
});
