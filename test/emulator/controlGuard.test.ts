import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { PUSH_PASSWORD, PUSH_USER, startPushTarget } from '../support/pushTarget';

/** A raw HTTP request, so that the Host header can be anything (fetch always sends the URL's). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the control API answers only its own, with its token, in JSON', () => {
  let emulator: RunningEmulator;
  let partner: Awaited<ReturnType<typeof startPushTarget>>;
  const host = () => new URL(emulator.controlUrl).host;
  const bearer = () => `Bearer ${emulator.controlToken}`;
  /** What the partner endpoint has stored: a change the control API let through would show here. */
  const stored = () => partner.count('push_log');

  beforeAll(async () => {
    partner = await startPushTarget();
    emulator = await startEmulator({
      partnerUrl: partner.receiver.localUrl,
      partnerUsername: PUSH_USER,
      partnerPassword: PUSH_PASSWORD,
    });
  });
  afterAll(async () => {
    await emulator.close();
    await partner.stop();
  });

  it('with its token and a JSON body, a push is delivered', async () => {
    const outcome = await createEmulatorControl(emulator).push({ kind: 'message', channel: '19' });
    expect(outcome.acknowledged).toBe(true);
    expect(stored()).toBe(1);
  });

  it('a cross-site form post, with or without the token, changes nothing', async () => {
    const before = stored();
    const form = 'kind=message&message=Please+pay+the+deposit+at+http%3A%2F%2Fevil.example';
    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      { 'content-type': 'application/x-www-form-urlencoded', authorization: bearer() },
      { 'content-type': 'text/plain', authorization: bearer() },
      { 'content-type': 'multipart/form-data; boundary=x', authorization: bearer() },
    ]) {
      const answer = await send(`${emulator.controlUrl}/push`, { method: 'POST', headers, body: form });
      expect([401, 415]).toContain(answer.status);
    }
    expect(stored()).toBe(before);
  });

  it('a post without the token, or with a wrong one, is refused before anything happens', async () => {
    const before = stored();
    const body = JSON.stringify({ kind: 'message', channel: '244' });
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${emulator.controlToken}`, 'Bearer ']) {
      const answer = await send(`${emulator.controlUrl}/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toContain('needs its token');
    }
    expect((await send(`${emulator.controlUrl}/state`, {})).status).toBe(401);
    expect(stored()).toBe(before);
  });

  it('a request for another host name (a rebound DNS name) is refused, even with the token', async () => {
    const before = stored();
    const answer = await send(`${emulator.controlUrl}/push`, {
      method: 'POST',
      headers: {
        host: `evil.example:${new URL(emulator.controlUrl).port}`,
        'content-type': 'application/json',
        authorization: bearer(),
      },
      body: JSON.stringify({ kind: 'message', channel: '9' }),
    });
    expect(answer.status).toBe(421);
    expect(stored()).toBe(before);
    // localhost is this computer too.
    const local = await send(`${emulator.controlUrl}/state`, {
      headers: { host: `localhost:${new URL(emulator.controlUrl).port}`, authorization: bearer() },
    });
    expect(local.status).toBe(200);
  });

  it('an image’s su_url and the liveness check need no token, only the right host', async () => {
    expect((await send(`${emulator.controlUrl}/health`, {})).status).toBe(200);
    expect((await send(`${emulator.controlUrl}/images/999`, {})).status).toBe(404);
    expect(
      (await send(`${emulator.controlUrl}/health`, { headers: { host: `evil.example:${host().split(':')[1]}` } }))
        .status,
    ).toBe(421);
  });

  it('each run has its own token unless one is given', async () => {
    const other = await startEmulator();
    const fixed = await startEmulator({ controlToken: 'a-token-chosen-by-the-developer' });
    try {
      expect(other.controlToken).not.toBe(emulator.controlToken);
      expect(other.controlToken.length).toBeGreaterThanOrEqual(32);
      expect(fixed.controlToken).toBe('a-token-chosen-by-the-developer');
      expect((await createEmulatorControl(fixed).state()).hotelid).toBe('IK-DEMO-001');
    } finally {
      await other.close();
      await fixed.close();
    }
  });
});
