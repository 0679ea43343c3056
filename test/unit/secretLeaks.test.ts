import { describe, expect, it } from 'vitest';
import {
  bindSecretsToDatabase,
  containsSecret,
  redact,
  redactDeep,
  redactFailure,
  redactJson,
  SECRET_REMOVED,
  secretsOfDatabase,
} from '../../src/main/gateway/secretLeaks';
import { AppFailure } from '../../src/shared/result';

const SECRET = 'cs_Q7v+9/kL=mZ"ä x';

describe('redact: every form a provider could echo a secret in', () => {
  it('removes the secret as it is, and says something was there', () => {
    expect(redact(`Invalid client-secret ${SECRET} for client-id abc.`, [SECRET])).toBe(
      `Invalid client-secret ${SECRET_REMOVED} for client-id abc.`,
    );
  });

  it('removes it URL-encoded (query string, form body, lower-case hex)', () => {
    const encoded = encodeURIComponent(SECRET);
    expect(redact(`GET /token?secret=${encoded}&x=1`, [SECRET])).toBe(`GET /token?secret=${SECRET_REMOVED}&x=1`);
    expect(redact(`body: secret=${encoded.replace(/%20/g, '+')}`, [SECRET])).toBe(`body: secret=${SECRET_REMOVED}`);
    const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
    expect(lowerHex).not.toBe(encoded);
    expect(redact(`q=${lowerHex}`, [SECRET])).toBe(`q=${SECRET_REMOVED}`);
  });

  it('removes it JSON-escaped (a provider echoing the request body)', () => {
    const echoed = JSON.stringify({ client_secret: SECRET });
    expect(redact(`Bad request: ${echoed}`, [SECRET])).not.toContain(JSON.stringify(SECRET).slice(1, -1));
    expect(redact(`Bad request: ${echoed}`, [SECRET])).toContain(SECRET_REMOVED);
  });

  it('removes it base64-encoded at any offset, as inside a Basic header with a user name before it', () => {
    const password = 'push-pass-8841';
    for (const user of ['a', 'ab', 'abc', 'innkeeper-user']) {
      const basic = Buffer.from(`${user}:${password}`).toString('base64');
      const text = `Authorization "Basic ${basic}" was refused`;
      const cleaned = redact(text, [password]);
      const [before, after] = cleaned.replace(/^Authorization "Basic /, '').split(SECRET_REMOVED);
      // What is left decodes to the user name (or less) and not one bit of the password; the padding went with it.
      expect(`${user}:`.startsWith(Buffer.from(before!, 'base64').toString('latin1'))).toBe(true);
      expect(after).toBe('" was refused');
    }
    const urlSafe = Buffer.from(`x${SECRET}`).toString('base64url');
    expect(redact(`token ${urlSafe}`, [SECRET])).toContain(SECRET_REMOVED);
  });

  it('leaves short values and ordinary text alone, and keeps the rest of the message', () => {
    expect(redact('The rate for room 12345 failed: 12345 is unknown', ['12345'])).toBe(
      'The rate for room 12345 failed: 12345 is unknown',
    );
    expect(redact('Nothing to hide here.', [SECRET, null, undefined])).toBe('Nothing to hide here.');
  });

  it('removes a longer secret whole even when a shorter one is inside it', () => {
    expect(redact('key=abcdef-123456', ['abcdef', 'abcdef-123456'])).toBe(`key=${SECRET_REMOVED}`);
  });
});

describe('redacting errors and stored JSON', () => {
  const error = {
    code: 'unauthorized',
    message: `Getting an access token failed: secret ${SECRET} is wrong.`,
    field: 'clientSecret',
    fields: { clientSecret: `Su said: “${SECRET} unknown”` },
    httpStatus: 401,
    retryable: false,
  };

  it('redactDeep cleans every string of an AppError and keeps the rest', () => {
    const clean = redactDeep(error, [SECRET]);
    expect(JSON.stringify(clean)).not.toContain('cs_Q7v');
    expect(clean).toMatchObject({
      code: 'unauthorized',
      field: 'clientSecret',
      httpStatus: 401,
      retryable: false,
      message: `Getting an access token failed: secret ${SECRET_REMOVED} is wrong.`,
    });
    const date = new Date(0);
    expect(redactDeep({ at: date }, [SECRET]).at).toBe(date);
  });

  it('redactJson cleans JSON text (and text that is not JSON)', () => {
    const text = redactJson(JSON.stringify(error), [SECRET]);
    expect(text).not.toContain('cs_Q7v');
    expect(JSON.parse(text)).toMatchObject({ fields: { clientSecret: `Su said: “${SECRET_REMOVED} unknown”` } });
    expect(redactJson(`not json ${SECRET}`, [SECRET])).toBe(`not json ${SECRET_REMOVED}`);
    expect(redactJson(null, [SECRET])).toBeNull();
  });

  it('redactFailure gives a clean AppFailure and lets other errors through', () => {
    const cleaned = redactFailure(new AppFailure(error), [SECRET]);
    expect(cleaned).toBeInstanceOf(AppFailure);
    expect((cleaned as AppFailure).message).not.toContain('cs_Q7v');
    const other = new TypeError('boom');
    expect(redactFailure(other, [SECRET])).toBe(other);
  });

  it('containsSecret finds a secret as it is and JSON-escaped', () => {
    expect(containsSecret(JSON.stringify({ m: SECRET }), [SECRET])).toBe(true);
    expect(containsSecret('nothing', [SECRET])).toBe(false);
  });

  it('the saved secrets bound to a database connection are read at each use', () => {
    const connection = {};
    expect(secretsOfDatabase(connection)).toEqual([]);
    const saved = ['first-secret'];
    bindSecretsToDatabase(connection, () => saved);
    saved.push('later-secret');
    expect(secretsOfDatabase(connection)).toEqual(['first-secret', 'later-secret']);
  });
});
