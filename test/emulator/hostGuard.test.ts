import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator';
import { DEFAULT_EMULATOR_OPTIONS } from '../../src/emulator/options';
import { clientIdFromDomain } from '../../src/shared/clientId';

/** A raw HTTP request, so that the Host header can be anything (fetch always sends the URL's). */
function send(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The emulator on loopback (the built-in demo, the tests) answers only requests addressed to its own loopback
 * address: a web page that reaches it through a rebound DNS name cannot get a token with the public demo
 * credentials, open a payment page or read its images.
 */
describe("the emulator's Su API answers only at its own loopback address", () => {
  let emulator: RunningEmulator;
  const port = () => new URL(emulator.mainUrl).port;
  const credentials = {
    'client-id': clientIdFromDomain(DEFAULT_EMULATOR_OPTIONS.domain),
    'client-secret': DEFAULT_EMULATOR_OPTIONS.clientSecret,
  };
  const tokenUrl = () => `${emulator.mainUrl}/jservice/auth/generate-access-token`;

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('a request for another host name is refused (421) with a clear message, and issues no token', async () => {
    for (const host of [`evil.example:${port()}`, 'evil.example', `127.0.0.1.evil.example:${port()}`]) {
      const refused = await send(tokenUrl(), { ...credentials, host });
      expect(refused.status).toBe(421);
      expect(refused.body).toMatch(/answers only at its own loopback address/);
      expect(refused.body).not.toMatch(/token/i);
    }
    // The right name on another port is not this emulator either.
    expect((await send(tokenUrl(), { ...credentials, host: '127.0.0.1:1' })).status).toBe(421);
    expect(emulator.state.tokens.size).toBe(0);
  });

  it('its payment pages and its copies of images are refused too', async () => {
    const host = `evil.example:${port()}`;
    expect((await send(`${emulator.tokenUrl}/get-cc?id=1`, { host })).status).toBe(421);
    expect((await send(`${emulator.mainUrl}/su-images/1`, { host })).status).toBe(421);
  });

  it('with its own address (127.0.0.1, localhost or [::1] and its port) it answers as before', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`]) {
      const answer = await send(tokenUrl(), { ...credentials, host });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ Status: 'Success', Data: { token: expect.any(String) } });
    }
    // fetch sends the URL's own Host, as the app does.
    expect((await fetch(tokenUrl(), { headers: credentials })).status).toBe(200);
  });
});
