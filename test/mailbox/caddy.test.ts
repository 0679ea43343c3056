import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealedBox } from '../../src/receiving/sealing';
import { generateDeviceKeyPair, openDelivery } from '../../src/receiving/sealing';
import { freePort, httpsRequest, startCaddy, type RunningCaddy } from '../support/caddy';
import { tempDir } from '../support/tempDir';

const root = join(import.meta.dirname, '..', '..');
const deploy = join(root, 'deploy', 'mailbox');

/**
 * The mailbox's arguments exactly as deploy/mailbox/innkeeper-mailbox.service gives them (what follows `--` in its
 * ExecStart), with the test's own port and data folder in place of 8080 and /var/lib/innkeeper-mailbox/data.
 */
function unitArguments(port: number, data: string): string[] {
  const unit = readFileSync(join(deploy, 'innkeeper-mailbox.service'), 'utf8');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1];
  if (!execStart?.includes(' mailbox -- ')) throw new Error('the unit does not start `npm run mailbox -- …`');
  const args = execStart.split(' mailbox -- ')[1]!.trim().split(/\s+/);
  const at = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) throw new Error(`the unit gives no ${name}`);
    return i + 1;
  };
  args[at('--port')] = String(port);
  args[at('--data')] = data;
  return args;
}

/** One plain-http request straight to the mailbox (not through Caddy), from `localAddress`. */
function direct(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false, localAddress: options.localAddress },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const PUSH_USER = 'su-partner';
const PUSH_PASSWORD = 'kV7#pQ2!mZ9@tR4$wX6%';

describe('the mailbox behind Caddy (Debian’s caddy, tls internal, loopback only)', () => {
  const data = tempDir('innkeeper-mailbox-caddy-');
  let child: ChildProcessWithoutNullStreams;
  let out = '';
  let mailboxUrl = '';
  let code = '';
  let caddy: RunningCaddy;
  const device = generateDeviceKeyPair();
  let token = '';

  beforeAll(async () => {
    // Started as the systemd unit starts it (its own arguments), through tsx as `npm run mailbox` does.
    const port = await freePort();
    child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'src', 'mailbox', 'main.ts'), ...unitArguments(port, join(data.path, 'data'))],
      { cwd: root },
    );
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    mailboxUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mailbox did not start within 30 s: ${out}`)), 30_000);
      child.stdout.on('data', () => {
        const m = /mailbox: (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', (status) => {
        clearTimeout(timer);
        reject(new Error(`the mailbox exited (${status}): ${out}`));
      });
    });
    code = /pairing code: (\S+)/.exec(out)?.[1] ?? '';
    // Caddy as in deploy/mailbox/Caddyfile: reverse_proxy to the mailbox on 127.0.0.1.
    caddy = await startCaddy(`127.0.0.1:${port}`);
  }, 60_000);

  afterAll(async () => {
    await caddy?.close();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    data.remove();
  });

  it('listens where the unit says: 127.0.0.1 only, and printed a pairing code at its first start', () => {
    expect(mailboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  });

  it('pairs a computer over https through Caddy; Su’s push through Caddy is acknowledged and kept, sealed for it', async () => {
    const pair = await httpsRequest(`${caddy.url}/mailbox/pair`, {
      ca: caddy.ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code,
        name: 'Front desk laptop',
        publicKey: device.publicKey,
        pushUser: PUSH_USER,
        pushPassword: PUSH_PASSWORD,
      }),
    });
    expect(pair.status, pair.text).toBe(200);
    token = (JSON.parse(pair.text) as { token: string }).token;
    expect(token).toBeTruthy();

    const body = JSON.stringify({
      message_id: 'caddy-1',
      channel: 19,
      hotelid: 'H-1',
      message: 'Could we check in at 22:00? — Ana',
    });
    const push = await httpsRequest(`${caddy.url}/push`, {
      ca: caddy.ca,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(PUSH_USER, PUSH_PASSWORD) },
      body,
    });
    expect(push.status, push.text).toBe(200);
    expect(JSON.parse(push.text)).toMatchObject({ status: 'Success', Status: 'Success' });

    // The paired computer's call, through Caddy: the delivery is there, and opens to the exact bytes Su sent.
    const page = await httpsRequest(`${caddy.url}/mailbox/deliveries?after=0&limit=10`, {
      ca: caddy.ca,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(page.status, page.text).toBe(200);
    const { deliveries } = JSON.parse(page.text) as { deliveries: { seq: number; size: number; box: SealedBox }[] };
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery!.size).toBe(Buffer.byteLength(body));
    expect(openDelivery(delivery!.box, delivery!.seq, device.privateKey).raw.toString('utf8')).toBe(body);

    const health = await httpsRequest(`${caddy.url}/mailbox/health`, {
      ca: caddy.ca,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(health.status, health.text).toBe(200);
    expect((JSON.parse(health.text) as { devices: { name: string; self: boolean }[] }).devices).toContainEqual(
      expect.objectContaining({ name: 'Front desk laptop', self: true }),
    );

    // A wrong device credential through Caddy is refused.
    const wrong = await httpsRequest(`${caddy.url}/mailbox/health`, {
      ca: caddy.ca,
      headers: { authorization: `Bearer ${'x'.repeat(43)}` },
    });
    expect(wrong.status).toBe(401);
  });

  it('counts failed logins per real caller: the address Caddy forwards, never one a caller claims', async () => {
    const failedLogin = (localAddress: string, headers: Record<string, string> = {}) =>
      httpsRequest(`${caddy.url}/push`, {
        ca: caddy.ca,
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          authorization: basic(PUSH_USER, 'not-the-password'),
          ...headers,
        },
        body: '{}',
      });
    // 127.0.0.2 uses up its failed logins (20 a minute): refused with 429 after that.
    for (let i = 0; i < 20; i += 1) expect((await failedLogin('127.0.0.2')).status).toBe(401);
    expect((await failedLogin('127.0.0.2')).status).toBe(429);
    // Another caller behind the same Caddy is counted on its own (all of Caddy's connections come from 127.0.0.1:
    // only the X-Forwarded-For Caddy sets tells them apart) …
    expect((await failedLogin('127.0.0.3')).status).toBe(401);
    // … and cannot pass itself off as 127.0.0.2 (nor escape its own count) with an X-Forwarded-For of its own.
    expect((await failedLogin('127.0.0.3', { 'x-forwarded-for': '127.0.0.2' })).status).toBe(401);
    for (let i = 0; i < 18; i += 1) {
      expect((await failedLogin('127.0.0.3', { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).toBe(401);
    }
    expect((await failedLogin('127.0.0.3', { 'x-forwarded-for': '198.51.100.99' })).status).toBe(429);

    // Straight to the mailbox, from an address that is not its proxy, X-Forwarded-For is not believed at all:
    // a fresh claimed address on every try still uses up the caller's own count.
    for (let i = 0; i < 20; i += 1) {
      const answer = await direct(`${mailboxUrl}/push`, {
        method: 'POST',
        localAddress: '127.0.0.4',
        headers: {
          'content-type': 'application/json',
          authorization: basic(PUSH_USER, 'not-the-password'),
          'x-forwarded-for': `203.0.113.${i + 1}`,
        },
        body: '{}',
      });
      expect(answer.status).toBe(401);
    }
    const refused = await direct(`${mailboxUrl}/push`, {
      method: 'POST',
      localAddress: '127.0.0.4',
      headers: { authorization: basic(PUSH_USER, 'not-the-password'), 'x-forwarded-for': '203.0.113.200' },
      body: '{}',
    });
    expect(refused.status).toBe(429);

    // Su, with the right credentials, is never refused, whoever failed before it.
    const su = await httpsRequest(`${caddy.url}/push`, {
      ca: caddy.ca,
      method: 'POST',
      localAddress: '127.0.0.2',
      headers: { 'content-type': 'application/json', authorization: basic(PUSH_USER, PUSH_PASSWORD) },
      body: JSON.stringify({ message_id: 'caddy-2', channel: 19, hotelid: 'H-1', message: 'Thanks!' }),
    });
    expect(su.status, su.text).toBe(200);
  });
});
