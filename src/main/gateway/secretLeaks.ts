import { AppFailure } from '../../shared/result';

// SECURITY: what crosses to the renderer (call results, errors, events), what is logged and what a provider said
// before it is stored is cleaned of the secret values, in every form below. Secrets shorter than this are not looked
// for: too short to be secret, and they would match ordinary text (the forms refuse shorter ones; an old saved one
// may be shorter).
const MIN_SECRET_LENGTH = 6;
/** A derived form (a base64 stretch) shorter than this is not looked for: it could match ordinary text. */
const MIN_FORM_LENGTH = 8;
/**
 * A secret cut short (a provider that echoes the first part of a key, a preview cut after 200 characters) still
 * counts when what is left is at least this long and at least half of the secret: less is not a meaningful part
 * of it, and would match ordinary words in what guests write.
 */
const MIN_PART_LENGTH = 12;

/** What stands where a secret was, so the owner sees that something was there. */
export const SECRET_REMOVED = '[secret removed]';

const checked = (secrets: readonly (string | null | undefined)[]) =>
  [...new Set(secrets)].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);

/** The start of a secret that still counts as the secret (see {@link MIN_PART_LENGTH}); all of a short one. */
function leastPart(secret: string): string {
  if (secret.length <= MIN_PART_LENGTH) return secret;
  let end = Math.max(MIN_PART_LENGTH, Math.ceil(secret.length / 2));
  // Never between the two halves of a character outside the BMP.
  if (/[\uD800-\uDBFF]/.test(secret[end - 1]!)) end += 1;
  return secret.slice(0, end);
}

const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
/** JSON as PHP's json_encode writes it by default: "/" escaped, and everything outside ASCII as \uXXXX. */
const phpJsonEscaped = (text: string) =>
  jsonEscaped(text)
    .replace(/\//g, '\\/')
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const lowerHexEscapes = (url: string) => url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
/** URL-encoded: as a path or query part (encodeURIComponent, either case of hex) and as a form body. */
const urlForms = (text: string): string[] => {
  const url = encodeURIComponent(text);
  return [url, url.replace(/%20/g, '+'), lowerHexEscapes(url), new URLSearchParams({ v: text }).toString().slice(2)];
};
const hexForms = (text: string): string[] => {
  const hex = Buffer.from(text, 'utf8').toString('hex');
  return [hex, hex.toUpperCase()];
};

/**
 * The stretches of base64 that encode `text` whatever bytes come before and after it (a password inside an HTTP
 * Basic header is encoded together with the user name): one per alignment, without the characters that also
 * carry the neighbouring bytes. A stretch of a text's start is the start of the text's stretch.
 */
function base64Stretches(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: string[] = [];
  for (const lead of [0, 1, 2]) {
    const total = lead + bytes.length;
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = [0, 2, 3][lead]!;
    const end = Math.floor(total / 3) * 4 + [0, 1, 2][total % 3]!;
    const stretch = encoded.slice(start, end);
    out.push(stretch, stretch.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * One way a secret can be written. `text` counts from its start (from its end when `fromEnd`: the secret reversed)
 * once at least `least` characters of it are there; a base64 form takes its neighbouring characters with it.
 */
interface Form {
  text: string;
  least: number;
  fromEnd: boolean;
  base64: boolean;
}

/** The encodings a provider, a log or a guest could write a secret in; each maps a start of it to a start of its form. */
const ENCODINGS: ((secret: string) => string[])[] = [
  (s) => [s],
  (s) => [jsonEscaped(s), phpJsonEscaped(s)],
  urlForms,
  // JSON-escaped first, then URL-encoded (a JSON body in a query string).
  (s) => [jsonEscaped(s), phpJsonEscaped(s)].flatMap(urlForms),
  hexForms,
];

function formsOf(secret: string): Form[] {
  const part = leastPart(secret);
  const forms: Form[] = [];
  for (const encode of ENCODINGS) {
    const whole = encode(secret);
    const least = encode(part);
    whole.forEach((text, i) => forms.push({ text, least: least[i]!.length, fromEnd: false, base64: false }));
  }
  for (const text of [secret, jsonEscaped(secret)]) {
    const whole = base64Stretches(text);
    const least = base64Stretches(text === secret ? part : jsonEscaped(part));
    whole.forEach((stretch, i) => {
      if (stretch.length < MIN_FORM_LENGTH) return;
      forms.push({ text: stretch, least: Math.max(MIN_FORM_LENGTH, least[i]!.length), fromEnd: false, base64: true });
    });
  }
  const reversed = [...secret].reverse().join('');
  forms.push({ text: reversed, least: part.length, fromEnd: true, base64: false });
  return forms;
}

/**
 * Every form in which a secret could be written: as it is; JSON-escaped (also as PHP writes JSON); URL-encoded (as
 * in a query string or a form body, either case of hex digits), also after JSON-escaping; base64 (as in a Basic
 * header, at any offset, also URL-safe), also after JSON-escaping; hex (either case); and reversed. A form counts
 * whole or cut short, down to the part of the secret that is still meaningful (see {@link MIN_PART_LENGTH}).
 */
export function secretForms(secrets: readonly (string | null | undefined)[]): Form[] {
  const forms = new Map<string, Form>();
  for (const secret of checked(secrets)) {
    for (const form of formsOf(secret)) {
      const key = `${form.fromEnd ? '<' : '>'}${form.base64 ? 'b' : 't'}${form.text}`;
      const known = forms.get(key);
      if (!known || known.least > form.least) forms.set(key, form);
    }
  }
  return [...forms.values()];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

/** Finds every form of a set of secrets in a text, in one pass. */
interface Matcher {
  /** The stretches of `text` that hold a secret, in order, overlapping ones joined. */
  find(text: string): [number, number][];
  /**
   * No form holds a character JSON text writes otherwise (`"`, `\`, a control character, half a surrogate pair):
   * a form in any string of a value is then in the value's JSON text as it is (see {@link isCleanAnswer}).
   */
  jsonSafe: boolean;
}

/** Whether JSON.stringify writes `text` as it is (no `"`, `\`, control character or half a surrogate pair). */
const jsonAsIs = (text: string) => JSON.stringify(text) === `"${text}"`;

const anchorOf = (form: Form) => (form.fromEnd ? form.text.slice(-form.least) : form.text.slice(0, form.least));

function createMatcher(secrets: readonly (string | null | undefined)[]): Matcher | null {
  const forms = secretForms(secrets);
  if (forms.length === 0) return null;
  const anchors = [...new Set(forms.map(anchorOf))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(anchors.map(escapeRegExp).join('|'), 'g');
  const withAnchors = forms.map((form) => ({ form, anchor: anchorOf(form) }));

  /** Where `form`, found with its anchor at `at`, begins and ends in `text` (as much of it as is there). */
  const span = (text: string, form: Form, at: number): [number, number] => {
    let start: number;
    let end: number;
    if (form.fromEnd) {
      end = at + form.least;
      start = at;
      for (let k = form.text.length - form.least - 1; k >= 0 && start > 0 && text[start - 1] === form.text[k]; k -= 1)
        start -= 1;
    } else {
      start = at;
      end = at + form.least;
      for (let k = form.least; k < form.text.length && end < text.length && text[end] === form.text[k]; k += 1)
        end += 1;
    }
    if (form.base64) {
      // The base64 characters on either side carry a few bits of the secret too (and of its neighbours): they go
      // with it, and so does the padding.
      if (start > 0 && BASE64_CHAR.test(text[start - 1]!)) start -= 1;
      if (end < text.length && BASE64_CHAR.test(text[end]!)) end += 1;
      while (text[end] === '=') end += 1;
    }
    return [start, end];
  };

  return {
    jsonSafe: forms.every((form) => jsonAsIs(form.text)),
    find(text) {
      const found: [number, number][] = [];
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        const at = m.index;
        // Several anchors may start here (one inside another): each form whose anchor does is taken.
        for (const { form, anchor } of withAnchors) if (text.startsWith(anchor, at)) found.push(span(text, form, at));
        pattern.lastIndex = at + 1;
      }
      if (found.length < 2) return found;
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      const joined: [number, number][] = [found[0]!];
      for (const [start, end] of found.slice(1)) {
        const last = joined.at(-1)!;
        if (start < last[1]) last[1] = Math.max(last[1], end);
        else joined.push([start, end]);
      }
      return joined;
    },
  };
}

/** The matchers of the last few sets of secrets (they change rarely; building one costs more than using it). */
const matchers = new Map<string, Matcher | null>();
function matcherFor(secrets: readonly (string | null | undefined)[]): Matcher | null {
  const key = checked(secrets).sort().join('\u0000');
  let matcher = matchers.get(key);
  if (matcher === undefined) {
    matcher = createMatcher(secrets);
    if (matchers.size >= 16) matchers.delete(matchers.keys().next().value!);
    matchers.set(key, matcher);
  }
  return matcher;
}

const removeFound = (text: string, found: readonly [number, number][]): string => {
  let out = '';
  let from = 0;
  for (const [start, end] of found) {
    out += text.slice(from, start) + SECRET_REMOVED;
    from = end;
  }
  return out + text.slice(from);
};

/**
 * True when `text` (typically a JSON serialization) contains a secret value as it is or JSON-escaped. Cheap: the
 * gateway's last check, after {@link redactDeep} cleaned what it could reach.
 */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return checked(secrets).some((secret) => text.includes(secret) || text.includes(jsonEscaped(secret)));
}

/** True when `text` holds a secret in any of its {@link secretForms}. */
export function findsSecret(text: string, secrets: readonly (string | null | undefined)[]): boolean {
  return (matcherFor(secrets)?.find(text).length ?? 0) > 0;
}

/** Replaces every occurrence of a secret, in any of its {@link secretForms}, with {@link SECRET_REMOVED}. */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  const matcher = matcherFor(secrets);
  if (!matcher) return text;
  const found = matcher.find(text);
  return found.length ? removeFound(text, found) : text;
}

/** `value` with every string in it (keys too) cleaned; the same object when nothing needed cleaning. */
function removeDeep<T>(value: T, matcher: Matcher): T {
  if (typeof value === 'string') {
    const found = matcher.find(value);
    return (found.length ? removeFound(value, found) : value) as T;
  }
  if (Array.isArray(value)) {
    const items = value.map((v: unknown) => removeDeep(v, matcher));
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  const proto: unknown = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  // Plain objects only: anything else (a Date) is kept as it is, as JSON would write it.
  if (proto === Object.prototype || proto === null) {
    const entries = Object.entries(value as object);
    const cleaned = entries.map(([k, v]) => [removeDeep(k, matcher), removeDeep(v, matcher)] as const);
    if (cleaned.every(([k, v], i) => k === entries[i]![0] && v === entries[i]![1])) return value;
    return Object.fromEntries(cleaned) as T;
  }
  return value;
}

/**
 * Whether an answer holds no secret in any form, found in one pass over its JSON text (instead of a pass over each
 * of its strings and keys: a page of 100 conversations has about 3,600). Sound only when no form has a character
 * JSON writes otherwise; false (look closer) then, or when the text holds anything like a form, or when the value is
 * not JSON.
 */
export function isCleanAnswer(value: unknown, secrets: readonly (string | null | undefined)[]): boolean {
  const matcher = matcherFor(secrets);
  if (!matcher) return true;
  if (!matcher.jsonSafe) return false;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return false;
  }
  return json !== undefined && matcher.find(json).length === 0 && !containsSecret(json, checked(secrets));
}

/** A copy of plain data (an AppError, a provider answer) with every string in it {@link redact}ed. */
export function redactDeep<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const matcher = matcherFor(secrets);
  return matcher ? removeDeep(value, matcher) : value;
}

/** JSON text as it is about to be stored (an error column), with every string in it {@link redact}ed. */
export function redactJson(text: string, secrets: readonly (string | null | undefined)[]): string;
export function redactJson(text: string | null, secrets: readonly (string | null | undefined)[]): string | null;
export function redactJson(text: string | null, secrets: readonly (string | null | undefined)[]): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(redactDeep(JSON.parse(text) as unknown, secrets));
  } catch {
    return redact(text, secrets);
  }
}

/** `error` again, with the secrets removed from what it says when it is an {@link AppFailure}. */
export function redactFailure(error: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (!(error instanceof AppFailure)) return error;
  const clean = redactDeep(error.error, secrets);
  return JSON.stringify(clean) === JSON.stringify(error.error) ? error : new AppFailure(clean);
}

/**
 * The secret values as the guards look for them: each saved value, and the bare access token inside a saved token
 * entry (kept as JSON with its expiry).
 */
export function withInnerTokens(values: readonly string[]): string[] {
  return values.flatMap((value) => {
    try {
      const parsed = JSON.parse(value) as { token?: unknown } | null;
      return typeof parsed?.token === 'string' ? [value, parsed.token] : [value];
    } catch {
      return [value];
    }
  });
}

/**
 * `target` (a host's notifier) with each of its functions given arguments cleaned of the secrets: what a native
 * notification shows leaves the app just as the window's answers do.
 */
export function cleanedCalls<T extends object>(target: T, secrets: () => readonly string[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown =>
        (value as (...a: unknown[]) => unknown).apply(object, redactDeep(args, secrets()));
    },
  });
}

/**
 * The saved secrets that belong with a database, so that each place writing a provider text into it removes them
 * too (a second line of defence behind the provider client). The connection service, which owns the secrets,
 * binds them to the database connection it is given; every store reaches the same connection.
 */
const bound = new WeakMap<object, () => readonly string[]>();

/** Binds the saved secrets (read at each write, so a secret saved later counts too) to a database connection. */
export function bindSecretsToDatabase(db: object, values: () => readonly string[]): void {
  bound.set(db, values);
}

/** The saved secrets bound to a database connection (none when nothing was bound). */
export function secretsOfDatabase(db: object): readonly string[] {
  return bound.get(db)?.() ?? [];
}
