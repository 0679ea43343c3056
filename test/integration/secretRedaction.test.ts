import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localToday } from '../../src/shared/dates';
import { SECRET_REMOVED } from '../../src/main/gateway/secretLeaks';
import { createOutboxSql } from '../../src/main/outbox/outboxSql';
import { paymentsStore } from '../../src/main/payments/paymentsSql';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { startEchoingSu } from '../support/echoingSu';
import { eventually } from '../support/eventually';

// A provider whose refusals quote back the secrets it was sent (as typed, URL-encoded, inside a Basic header): a
// real core on real SQLite, Su a small fake on loopback that echoes the client secret, the Authorization header and
// the payment key. No secret, saved or only typed, comes back from a call or lands in the database, and the rest of
// Su's words do.

const SAVED_SECRET = 'cs-saved/Q7+v9 kL';
const TYPED_SECRET = 'cs-typed-N3w+Zq!8';
const PAYMENT_KEY = 'pk-live-5Rt9Wq2Yx';
const FACILITY_KEY = 'fk-Hh83Jd0s-facility';
const PUSH_PASSWORD = 'push-Pw-77xQ';
const TOKEN = 'sandbox_tok-7Hq2LmW9xZ';
const HOTEL = 'IK-ECHO-1';

/** Each secret as it was sent and as Su echoes it (URL-encoded, inside a Basic header). */
const FORMS = [SAVED_SECRET, TYPED_SECRET, PAYMENT_KEY, FACILITY_KEY, PUSH_PASSWORD, TOKEN].flatMap((s) => [
  s,
  encodeURIComponent(s),
  Buffer.from(`partner:${s}`).toString('base64'),
]);
const leaked = (text: string) => FORMS.filter((form) => text.includes(form));

let su: Awaited<ReturnType<typeof startEchoingSu>>;
let ctx: Awaited<ReturnType<typeof startTestCore>>;
const { call, dispatch } = contractClient(() => ctx.core.dispatcher);
let profile: Parameters<typeof call<'connection.test'>>[1];

beforeAll(async () => {
  su = await startEchoingSu(SAVED_SECRET);
  ctx = await startTestCore();
  profile = {
    environment: 'sandbox',
    mainBaseUrl: su.mainBaseUrl,
    tokenBaseUrl: su.tokenBaseUrl,
    domain: 'harbourview.example',
    facilityAppId: 'app-harbour',
    paymentApiName: 'harbour',
    notificationUser: 'innkeeper',
    secrets: {},
  };
  await call('connection.save', {
    ...profile,
    secrets: {
      clientSecret: SAVED_SECRET,
      facilityApiKey: FACILITY_KEY,
      paymentApiKey: PAYMENT_KEY,
      notificationPassword: PUSH_PASSWORD,
    },
  });
  await call('rates.saveSetup', {
    hotelId: HOTEL,
    name: 'Echo House',
    channels: ['19', '244'],
    rooms: [{ id: 'DBL', rates: [{ id: 'BAR' }] }],
  });
});
afterAll(async () => {
  await ctx?.stop();
  await su?.close();
});

const lastCheck = () =>
  ctx.core.db.db.prepare('SELECT ok, error_field, message FROM connection_check ORDER BY id DESC LIMIT 1').get() as {
    ok: number;
    error_field: string | null;
    message: string;
  };

describe('secrets a provider echoes are never returned or stored', () => {
  it('Test connection with a typed, unsaved secret: the error keeps Su’s words and names the field, not the secret', async () => {
    const result = await dispatch('connection.test', { ...profile, secrets: { clientSecret: TYPED_SECRET } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = JSON.stringify(result.error);
    expect(leaked(text)).toEqual([]);
    expect(result.error).toMatchObject({ field: 'clientSecret', httpStatus: 401 });
    expect(result.error.message).toContain('Invalid client secret. Request was: client-secret=');
    expect(result.error.message).toContain(SECRET_REMOVED);
    expect(result.error.fields?.clientSecret).toContain('Su did not accept this client secret');
    // Not the generic "withheld" answer: the owner reads what Su said.
    expect(result.error.code).toBe('unauthorized');

    const check = lastCheck();
    expect(check).toMatchObject({ ok: 0, error_field: 'clientSecret' });
    expect(leaked(check.message)).toEqual([]);
    expect(check.message).toContain(`client-secret=${SECRET_REMOVED}`);
  });

  it('the saved settings still work: the same Su accepts the saved secret', async () => {
    const result = await call('connection.test', profile);
    expect(result).toMatchObject({ environment: 'sandbox', validated: true });
    expect(lastCheck()).toMatchObject({ ok: 1 });
  });

  it('a queued rate push Su refuses with an echo: outbox last_error and the history keep the reason, not the secrets', async () => {
    const day = addDays(localToday(), 3);
    await call('rates.saveDraft', {
      hotelId: HOTEL,
      edits: [
        {
          target: { level: 'rate', roomId: 'DBL', rateId: 'BAR' },
          from: day,
          to: day,
          channels: ['19'],
          rule: { type: 'Fixed', value: 80 },
        },
      ],
    });
    const { fingerprint } = await call('rates.preview', { hotelId: HOTEL });
    const { pushId } = await call('rates.push', { hotelId: HOTEL, fingerprint });
    const push = await eventually(
      async () => (await call('rates.history', { hotelId: HOTEL })).find((p) => p.id === pushId)!,
      (p) => p.state === 'failed',
    );
    expect(push.error?.message).toContain('Rate plan not mapped for this account');
    expect(push.error?.message).toContain(`Authorization=${SECRET_REMOVED}`);
    expect(push.error?.message).toContain(`query=?client_secret=${SECRET_REMOVED}`);
    expect(leaked(JSON.stringify(push))).toEqual([]);

    const rows = ctx.core.db.db.prepare('SELECT last_error FROM outbox WHERE last_error IS NOT NULL').all() as {
      last_error: string;
    }[];
    const refusal = rows.find((r) => r.last_error.includes('Rate plan not mapped'));
    expect(refusal).toBeDefined();
    expect(leaked(refusal!.last_error)).toEqual([]);
    expect(su.seen.some((s) => s.path.endsWith('/invratecontrol') && s.status === 400)).toBe(true);
  });

  it('a payment link the host refuses with an echo of the API key: the answer and the stored error are clean', async () => {
    await call('payments.enterPartner', { hotelId: HOTEL, partner_id: 'IK-PARTNER-9', currency_code: 'EUR' });
    const created = await call('payments.createLink', {
      hotelId: HOTEL,
      currency_code: 'EUR',
      amount: '45.50',
      order_id: 'ECHO-1',
    });
    expect(created.error?.message).toContain('Payment refused for this partner');
    expect(created.error?.message).toContain(`x-api-key=${SECRET_REMOVED}`);
    expect(leaked(JSON.stringify(created))).toEqual([]);
    const row = ctx.core.db.db.prepare('SELECT error FROM payment_links WHERE id = ?').get(created.link.id) as {
      error: string;
    };
    expect(row.error).toContain('Payment refused for this partner');
    expect(leaked(row.error)).toEqual([]);
  });

  it('an answer that succeeds with an echo inside (an Airbnb account’s message): shown and stored without it', async () => {
    const view = await call('notices.checkNow', { hotelId: HOTEL });
    const account = view.accounts.find((a) => a.hotelId === HOTEL && a.accountId === 'ACC-1');
    expect(account?.message).toContain('Account needs attention');
    expect(account?.message).toContain(`basic=Basic cGFydG5lcj${SECRET_REMOVED}`);
    expect(account?.message).toContain(`Authorization=${SECRET_REMOVED}`);
    expect(leaked(JSON.stringify(view))).toEqual([]);
    const row = ctx.core.db.db.prepare(`SELECT message FROM notice_accounts WHERE account_id = 'ACC-1'`).get() as {
      message: string;
    };
    expect(leaked(row.message)).toEqual([]);
  });

  it('behind the client, what is written into the database loses the saved secrets whoever wrote it', () => {
    const { db } = ctx.core;
    // A refusal that reached the outbox with a saved key in it (a sender that did not go through the client).
    const store = createOutboxSql(db);
    const item = store.insert('test-kind', 'test:echo', '{}', Date.now(), 'sandbox');
    store.markSending(item.id, Date.now());
    store.fail(item.id, { code: 'provider', message: `Refused key ${PAYMENT_KEY} and ${PUSH_PASSWORD}` }, Date.now());
    expect(store.get(item.id)?.lastError?.message).toBe(`Refused key ${SECRET_REMOVED} and ${SECRET_REMOVED}`);
    store.discard(item.id, Date.now());

    const payments = paymentsStore(db.db);
    const [link] = payments.links('sandbox');
    const error = JSON.stringify({ code: 'provider', message: `bad key ${encodeURIComponent(SAVED_SECRET)}` });
    payments.updateLink('sandbox', link!.id, { check_error: error });
    expect(payments.link('sandbox', link!.id)?.check_error).toBe(
      JSON.stringify({ code: 'provider', message: `bad key ${SECRET_REMOVED}` }),
    );
  });

  it('finally: no secret in any form anywhere in the database files', () => {
    const files = readdirSync(ctx.dataDir).filter((f) => f.startsWith('innkeeper.db'));
    expect(files).toContain('innkeeper.db');
    for (const file of files) {
      const bytes = readFileSync(join(ctx.dataDir, file)).toString('latin1');
      expect({ file, leaked: leaked(bytes) }).toEqual({ file, leaked: [] });
    }
    // The redaction marker did land there: the checks above were looking at real rows.
    const all = files.map((f) => readFileSync(join(ctx.dataDir, f)).toString('latin1')).join('');
    expect(all).toContain(SECRET_REMOVED);
  });
});
