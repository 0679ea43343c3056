import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractEvents } from '../../src/shared/contract';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { SECRET_REMOVED } from '../../src/main/gateway/secretLeaks';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';

// A guest who writes the owner's secrets into a message (by chance, or to make the inbox unreadable): a real core on
// real SQLite with the demo provider, its emulator pushing over loopback to the core's listener. The inbox stays
// readable, the new-message event arrives, and no secret, in any of the forms below, reaches an answer, an event or
// a log: where the guest wrote one, the owner reads "[secret removed]".

/** What the owner entered: the provider's keys (as the console issues them) and the passwords. */
const OWNER = {
  clientSecret: 'cs-Harbour-Q7v9kLmZ2x',
  facilityApiKey: 'fk-Hh83Jd0sPq-facility',
  // Shaped like the key in Su's published samples.
  paymentApiKey: 'kfpwsfnknknfwknfkwnknef9823rujfsormDFS3ijoncvowoeorfnv',
  notificationPassword: 'Welcome "Harbour" 2024\\x',
};
const PUSH_PASSWORD = 'Gx7-harbour-pushes-Qm2';
const TUNNEL_TOKEN = '2abcDEFghiJKLmnoPQRstu_3vwxYZ';
const SECRETS = [...Object.values(OWNER), PUSH_PASSWORD, TUNNEL_TOKEN];

const json = (s: string) => JSON.stringify(s).slice(1, -1);
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Every form a guest (or a provider) could write a secret in, as the test knows them. */
const formsOf = (s: string) => [
  s,
  json(s),
  s.slice(0, -1),
  s.slice(0, Math.ceil(s.length * 0.75)),
  encodeURIComponent(s),
  encodeURIComponent(json(s)),
  b64(s).replace(/=+$/, ''),
  b64(json(s)).replace(/=+$/, ''),
  Buffer.from(s).toString('hex'),
  Buffer.from(s).toString('hex').toUpperCase(),
  [...s].reverse().join(''),
];
const FORMS = SECRETS.flatMap(formsOf);
const leaked = (text: string) => FORMS.filter((form) => text.includes(form) || text.includes(json(form)));

/** The messages the guests write: each secret in a sentence, and every form of it. */
const MESSAGES = SECRETS.map((s, i) => `Hi! ${s} message ${i} — can we check in early?`);
const ALL_FORMS_MESSAGE = `Odd codes: ${SECRETS.flatMap(formsOf)
  .map((f) => `<${f}>`)
  .join(' ')} — and is breakfast included?`;

let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
const logged: string[] = [];
const seen: { event: string; payload: unknown }[] = [];

beforeAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      original(...args);
    });
  }
  ctx = await startTestCore();
  await call('connection.save', { environment: 'demo', domain: 'demo.innkeeper.test', secrets: OWNER });
  await call('intake.save', {
    port: 8787,
    username: 'su-partner',
    password: PUSH_PASSWORD,
    tunnel: { enabled: false, authtoken: TUNNEL_TOKEN, domain: '' },
  });
  ctx.core.events.onAny((event, payload) => seen.push({ event, payload }));
});
afterAll(async () => {
  await ctx?.stop();
  vi.restoreAllMocks();
});

describe('a guest who writes the owner’s secrets', () => {
  it('every secret is saved: the guard knows them all', async () => {
    const state = await call('connection.get');
    expect(state.profiles.demo.secretsSet).toEqual({
      clientSecret: true,
      facilityApiKey: true,
      paymentApiKey: true,
      notificationPassword: true,
    });
    expect((await call('intake.status')).passwordSet).toBe(true);
  });

  it('pushed through the listener, the messages are filed and the inbox stays readable, without the secrets', async () => {
    const control = createEmulatorControl(ctx.emulator());
    for (const message of [...MESSAGES, ALL_FORMS_MESSAGE]) {
      expect(await control.push({ kind: 'message', channel: '244', message })).toMatchObject({ acknowledged: true });
    }
    const page = await eventually(
      () => dispatch('inbox.threads', { limit: 50 }),
      (r) => r.ok && r.value.total === MESSAGES.length + 1,
    );
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    expect(leaked(JSON.stringify(page))).toEqual([]);
    const previews = page.value.threads.map((t) => t.preview ?? '');
    for (let i = 0; i < MESSAGES.length; i += 1) {
      expect(previews).toContain(`Hi! ${SECRET_REMOVED} message ${i} — can we check in early?`);
    }

    for (const thread of page.value.threads) {
      const detail = await dispatch('inbox.thread', { id: thread.id });
      expect(detail.ok).toBe(true);
      if (!detail.ok) continue;
      expect(leaked(JSON.stringify(detail))).toEqual([]);
      const body = detail.value.messages.at(-1)!.body;
      expect(body).toContain(SECRET_REMOVED);
      expect(body).toMatch(/(can we check in early|is breakfast included)\?$/);
    }
    // Searching finds the words around them.
    const found = await dispatch('inbox.threads', { search: 'breakfast' });
    expect(found.ok && found.value.total).toBe(1);
    expect(leaked(JSON.stringify(found))).toEqual([]);
  });

  it('each new message was announced, without the secrets', async () => {
    const news = await eventually(
      async () => seen.filter((s) => s.event === 'inbox.newMessage'),
      (n) => n.length === MESSAGES.length + 1,
    );
    expect(news).toHaveLength(MESSAGES.length + 1);
    const previews = news.map((n) => (n.payload as ContractEvents['inbox.newMessage']).preview);
    expect(previews).toContain(`Hi! ${SECRET_REMOVED} message 0 — can we check in early?`);
    expect(leaked(JSON.stringify(seen))).toEqual([]);
  });

  it('a delivery that fits no kind, with a secret in it: the quarantine list shows it without the secret', async () => {
    const status = await call('intake.status');
    const response = await fetch(status.localUrl!, {
      method: 'POST',
      headers: {
        authorization: `Basic ${b64(`su-partner:${PUSH_PASSWORD}`)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ event: 'booking_modified', note: `key ${OWNER.paymentApiKey} and ${PUSH_PASSWORD}` }),
    });
    expect(response.status).toBe(200);
    const list = await dispatch('intake.quarantine');
    expect(list).toMatchObject({
      ok: true,
      value: [expect.objectContaining({ body: expect.stringContaining('key ') })],
    });
    expect(leaked(JSON.stringify(list))).toEqual([]);
  });

  it('finally: nothing that was logged carries a secret', () => {
    expect(leaked(logged.join('\n'))).toEqual([]);
  });
});

describe('secrets long enough to be secrets, refused over the contract when they are not', () => {
  const pushWith = async (password: string) => {
    const status = await call('intake.status');
    const response = await fetch(status.localUrl!, {
      method: 'POST',
      headers: { authorization: `Basic ${b64(`su-partner:${password}`)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'booking_modified' }),
    });
    return response.status;
  };

  it('a push password that is easy to guess is refused, naming the field, and the saved one stays', async () => {
    for (const [password, why] of [
      ['aaaaaaaaaaaaaaaa', 'it repeats one character'],
      ['abcdefgh12345678', 'it runs along the alphabet'],
    ] as const) {
      const result = await dispatch('intake.save', { port: 8787, username: 'su-partner', password });
      expect(result).toMatchObject({ ok: false, error: { code: 'validation', field: 'password' } });
      expect(!result.ok && result.error.fields?.password).toContain(`The password for Su is easy to guess: ${why}`);
      expect(await pushWith(password)).toBe(401);
    }
    expect(await pushWith(PUSH_PASSWORD)).toBe(200);
  });

  it('a key or password from Su that is too short is refused, naming the field, and the saved one stays', async () => {
    const result = await dispatch('connection.save', {
      environment: 'demo',
      domain: 'demo.innkeeper.test',
      secrets: { notificationPassword: 'Welcome' },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation', field: 'secrets.notificationPassword' } });
    expect(!result.ok && result.error.message).toContain('The notification password is too short');
    const saved = JSON.parse(readFileSync(join(ctx.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(saved['demo.notificationPassword']).toBe(OWNER.notificationPassword);
  });
});

describe('the secrets the guard knows besides the saved ones, and the notification that leaves the app', () => {
  const ENV_PASSWORD = 'Env-pushes-Zr8q-Harbour';
  let own: Awaited<ReturnType<typeof startTestCore>> | null = null;
  afterAll(() => own?.stop());

  it('the access token, the password from INNKEEPER_PUSH_PASSWORD: removed from the inbox, its event and the notification', async () => {
    const notified: unknown[] = [];
    own = await startTestCore({
      coreOptions: {
        intakeEnv: { port: 0, password: ENV_PASSWORD },
        notifier: { newMessage: (m: unknown) => notified.push(m), unreadCount: () => {} },
      },
    });
    const client = contractClient(() => own!.core.dispatcher);
    // The demo's start sent its property records: the access token is saved (inside its entry).
    await client.call('connection.test', { environment: 'demo', domain: 'demo.innkeeper.test' });
    const entry = JSON.parse(readFileSync(join(own.dataDir, 'secrets.json'), 'utf8') as string) as Record<
      string,
      string
    >;
    const token = (JSON.parse(entry['demo.token']!) as { token: string }).token;
    expect(token).toMatch(/^sandbox_/);
    const events: unknown[] = [];
    own.core.events.on('inbox.newMessage', (m) => events.push(m));

    const message = `Is this yours? ${token} and ${ENV_PASSWORD} — can we check in early?`;
    await createEmulatorControl(own.emulator()).push({ kind: 'message', channel: '19', message });
    const page = await eventually(
      () => client.call('inbox.threads', {}),
      (p) => p.total === 1,
    );
    const detail = await client.call('inbox.thread', { id: page.threads[0]!.id });
    expect(detail.messages.at(-1)!.body).toBe(
      `Is this yours? ${SECRET_REMOVED} and ${SECRET_REMOVED} — can we check in early?`,
    );
    await eventually(
      async () => notified.length,
      (n) => n === 1,
    );
    for (const seen of [page, detail, events, notified]) {
      const text = JSON.stringify(seen);
      expect(text).not.toContain(token.slice(0, 20));
      expect(text).not.toContain(ENV_PASSWORD);
    }
    expect(events).toHaveLength(1);
    expect(notified).toEqual([expect.objectContaining({ preview: expect.stringContaining(SECRET_REMOVED) })]);
  });
});
