import { describe, expect, it } from 'vitest';
import {
  bindSecretsToDatabase,
  containsSecret,
  findsSecret,
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

describe('redact: a secret cut short, hex, reversed, escaped then encoded', () => {
  // Shaped like the key in Su's published samples (52 characters).
  const KEY = 'kfpwsfnknknfwknfkwnknef9823rujfsormDFS3ijoncvowoeorf';
  const QUOTED = 'pw-"Harbour"\\2024/ä!';
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  const reversed = (s: string) => [...s].reverse().join('');
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const clean = (text: string, secrets: string[] = [KEY, QUOTED]) => redact(text, secrets);

  it('removes a key cut short, down to half of it (at least 12 characters), and the cut-off part is gone too', () => {
    for (const cut of [1, 2, 10, 26]) {
      const part = KEY.slice(0, KEY.length - cut);
      expect(clean(`key=${part}&more`)).toBe(`key=${SECRET_REMOVED}&more`);
    }
    // A preview cut after so many characters, in the middle of a guest's text.
    expect(clean(`Hi! My code is ${KEY}`.slice(0, 50))).toBe(`Hi! My code is ${SECRET_REMOVED}`);
  });

  it('leaves a start shorter than half of the key alone: it is not a meaningful part of it', () => {
    const part = KEY.slice(0, 25);
    expect(clean(`key=${part}&more`)).toBe(`key=${part}&more`);
  });

  it('removes it written in hex, either case, whole or cut short', () => {
    expect(clean(`bytes ${hex(KEY)} end`)).toBe(`bytes ${SECRET_REMOVED} end`);
    expect(clean(`bytes ${hex(KEY).toUpperCase()} end`)).toBe(`bytes ${SECRET_REMOVED} end`);
    expect(clean(`bytes ${hex(KEY.slice(0, 40))} end`)).toBe(`bytes ${SECRET_REMOVED} end`);
    expect(clean(`bytes ${hex(QUOTED)} end`)).toBe(`bytes ${SECRET_REMOVED} end`);
  });

  it('removes it reversed, whole or missing its first characters', () => {
    expect(clean(`odd ${reversed(KEY)} end`)).toBe(`odd ${SECRET_REMOVED} end`);
    expect(clean(`odd ${reversed(KEY.slice(0, 45))} end`)).toBe(`odd ${SECRET_REMOVED} end`);
    expect(clean(`odd ${reversed(QUOTED)} end`)).toBe(`odd ${SECRET_REMOVED} end`);
  });

  it('removes a secret with quotes and backslashes JSON-escaped, also as PHP writes JSON', () => {
    expect(clean(`{"p":"${json(QUOTED)}"}`)).toBe(`{"p":"${SECRET_REMOVED}"}`);
    const php = json(QUOTED).replace(/\//g, '\\/').replace('ä', '\\u00e4');
    expect(clean(`{"p":"${php}"}`)).toBe(`{"p":"${SECRET_REMOVED}"}`);
  });

  it('removes it JSON-escaped then URL-encoded (a JSON body in a query string), and as a form body', () => {
    const url = encodeURIComponent(`{"p":"${json(QUOTED)}"}`);
    expect(clean(`q=${url}`)).not.toContain(encodeURIComponent(json(QUOTED)));
    expect(clean(`q=${url}`)).toBe(`q=${encodeURIComponent('{"p":"')}${SECRET_REMOVED}${encodeURIComponent('"}')}`);
    const form = new URLSearchParams({ p: QUOTED }).toString();
    expect(clean(form)).toBe(`p=${SECRET_REMOVED}`);
  });

  it('removes it JSON-escaped then base64-encoded, at any offset', () => {
    for (const before of ['', 'a', 'ab', '{"p":"']) {
      const encoded = Buffer.from(`${before}${json(QUOTED)}"}`).toString('base64');
      const cleaned = clean(`data ${encoded} end`);
      expect(cleaned).toContain(SECRET_REMOVED);
      const left = cleaned.replace(/^data /, '').split(SECRET_REMOVED)[0]!;
      // What is left decodes to what came before (or less), and not one character of the secret.
      expect(before.startsWith(Buffer.from(left, 'base64').toString('latin1'))).toBe(true);
    }
  });

  it('removes a key cut short inside base64 (a Basic header cut off)', () => {
    const basic = Buffer.from(`partner:${KEY}`).toString('base64');
    // The same as the whole header: the user name's characters stay, the key's go.
    expect(clean(`Basic ${basic}`)).toBe(`Basic cGFydG5lcj${SECRET_REMOVED}`);
    expect(clean(`Basic ${basic.slice(0, 60)}`)).toBe(`Basic cGFydG5lcj${SECRET_REMOVED}`);
  });

  it('leaves ordinary words alone, even when a saved secret is made of them', () => {
    const secrets = ['demo-client-secret', 'demo-password', 'Welcome "Harbour" 2024'];
    for (const text of [
      'Invalid client-secret for this client-id.',
      'Please enter your password.',
      'Welcome to the Harbour! We hope you enjoy 2024.',
      'Hi! Welcome message from the team',
    ]) {
      expect(redact(text, secrets)).toBe(text);
    }
  });

  it('findsSecret answers whether any form is there', () => {
    expect(findsSecret(`x ${hex(KEY)}`, [KEY])).toBe(true);
    expect(findsSecret(`x ${KEY.slice(0, 20)}`, [KEY])).toBe(false);
    expect(findsSecret('nothing', [KEY, null])).toBe(false);
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
