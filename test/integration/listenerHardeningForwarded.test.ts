import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeSettingsInput } from '../../src/shared/intake';
import type { Photo } from '../../src/shared/photos';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { createFakeTunnelProvider } from '../support/fakeTunnel';

// Whose failed logins a request counts under, on a real core over real loopback HTTP: X-Forwarded-For is believed
// only while a forwarder is in front of the listener (the tunnel, or the owner's own public address), and only
// failed credentials (401) count, so Su fetching stale photo addresses is never refused.

const PASSWORD = 'forwarded-test-password-123';
const TOKEN = '2abcdefghijklmnopqrstuvwxyz_0123456789';
const basic = (password: string) => `Basic ${Buffer.from(`su-partner:${password}`).toString('base64')}`;

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
});
const { call } = contractClient(() => ctx!.core.dispatcher);
const save = (reach: Pick<IntakeSettingsInput, 'publicUrl' | 'tunnel'>) =>
  call('intake.save', { port: 40000, username: 'su-partner', password: PASSWORD, ...reach });

/** Failed logins at `url`, each claiming another client in X-Forwarded-For: the answers' statuses. */
async function failedLogins(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: basic(`guess-${i}`), 'x-forwarded-for': `198.51.100.${i + 1}` },
      body: '{}',
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe('X-Forwarded-For picks the client only while a forwarder is in front', () => {
  it('without the tunnel or a public address the header is ignored: 20 failures from "20 clients" are one', async () => {
    ctx = await startTestCore({ tunnelProvider: createFakeTunnelProvider().provider });
    const status = await save({ publicUrl: '', tunnel: { enabled: false, domain: '' } });
    // All 21 come from this computer; the header they carry does not spread them over 21 keys.
    expect(await failedLogins(status.localUrl!, 21)).toEqual([...Array(20).fill(401), 429]);
    // Su's push with the right credentials is served all the same.
    const real = await fetch(status.localUrl!, {
      method: 'POST',
      headers: { authorization: basic(PASSWORD) },
      body: '{}',
    });
    expect(real.status).toBe(200);
  });

  it('with the owner’s own public address (a reverse proxy), the last entry it appended is the client', async () => {
    ctx = await startTestCore();
    const status = await save({ publicUrl: 'https://inn.example.com/push', tunnel: { enabled: false, domain: '' } });
    expect(await failedLogins(status.localUrl!, 21)).toEqual(Array(21).fill(401));
  });

  it('while the tunnel is on its header is believed; turned off, no longer', async () => {
    ctx = await startTestCore({
      tunnelProvider: createFakeTunnelProvider({ clientOf: (req) => String(req.headers['x-test-client']) }).provider,
    });
    const on = await save({ publicUrl: '', tunnel: { enabled: true, authtoken: TOKEN, domain: '' } });
    expect(on.tunnel.state).toBe('up');
    const through: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await fetch(on.registerUrl!, {
        method: 'POST',
        headers: { authorization: basic(`guess-${i}`), 'x-test-client': `203.0.113.${i + 1}` },
        body: '{}',
      });
      through.push(response.status);
    }
    expect(through).toEqual(Array(21).fill(401));

    const off = await save({ publicUrl: '', tunnel: { enabled: false, domain: '' } });
    expect(off.tunnel.state).toBe('off');
    expect(await failedLogins(off.localUrl!, 21)).toEqual([...Array(20).fill(401), 429]);
  });
});

describe('Su fetching stale photo addresses is never refused', () => {
  it('25 stale photo addresses and unknown paths from Su’s address through the tunnel, then its photo is served', async () => {
    // Every request through this tunnel comes from Su's photo fetcher (203.0.113.7).
    ctx = await startTestCore({ tunnelProvider: createFakeTunnelProvider().provider });
    await eventually(
      () => call('rates.properties', {}),
      (p) => p.length >= 1,
    );
    const bytes = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#6a8caf' } })
      .jpeg()
      .toBuffer();
    const { uploadId } = await call('photos.addStart', {
      hotelId: 'IK-DEMO-001',
      fileName: 'yard.jpg',
      bytes: bytes.length,
      assignments: { property: true, rooms: [] },
    });
    await call('photos.addChunk', { uploadId, offset: 0, data: bytes.toString('base64') });
    const photo: Photo = await call('photos.addFinish', { uploadId });
    const status = await save({ publicUrl: '', tunnel: { enabled: true, authtoken: TOKEN, domain: '' } });
    const base = status.registerUrl!.replace(/\/push$/, '');

    // Addresses Su was given earlier: revoked ones (it already has those copies) and ones that expired.
    const link = (token: string, revoked: number | null, expires: number) =>
      ctx!.core.db.db
        .prepare('INSERT INTO media_links (token, photo_id, created_at, expires_at, revoked_at) VALUES (?, ?, 1, ?, ?)')
        .run(token, photo.id, expires, revoked);
    const stale = Array.from({ length: 25 }, (_, i) => i.toString(16).padStart(32, 'c'));
    stale.forEach((token, i) => link(token, i % 2 ? 5 : null, i % 2 ? Date.now() + 3600_000 : 2));
    const live = 'ab'.repeat(16);
    link(live, null, Date.now() + 3600_000);

    const answers: number[] = [];
    for (const token of stale) answers.push((await fetch(`${base}/media/${token}/yard.jpg`)).status);
    for (let i = 0; i < 25; i++) answers.push((await fetch(`${base}/photos/old-${i}.jpg`)).status);
    expect(answers).toEqual(Array(50).fill(404));

    const got = await fetch(`${base}/media/${live}/yard.jpg`);
    expect(got.status).toBe(200);
    const served = Buffer.from(await got.arrayBuffer());
    expect(served.equals(readFileSync(join(ctx.dataDir, 'photos', `${photo.id}.jpg`)))).toBe(true);
    // Nothing was counted against that address: a wrong password from it is a plain 401.
    const wrong = await fetch(status.registerUrl!, { method: 'POST', headers: { authorization: basic('nope') } });
    expect(wrong.status).toBe(401);
  });
});
