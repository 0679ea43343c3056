import { AppFailure } from '../../shared/result';

// SECURITY: what crosses to the renderer (call results, errors, events), what is logged and what a provider said
// before it is stored is checked against the secret values. Secrets shorter than this are not looked for: too
// short to be secret, and they would match ordinary text.
const MIN_SECRET_LENGTH = 6;
/** A derived form (a base64 stretch) shorter than this is not looked for: it could match ordinary text. */
const MIN_FORM_LENGTH = 8;

/** What stands where a secret was, so the owner sees that something was there. */
export const SECRET_REMOVED = '[secret removed]';

const checked = (secrets: readonly (string | null | undefined)[]) =>
  [...new Set(secrets)].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);

/**
 * The stretches of base64 that encode `secret` whatever bytes come before and after it (a password inside an HTTP
 * Basic header is encoded together with the user name): one per alignment, without the characters that also
 * carry the neighbouring bytes.
 */
function base64Stretches(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (const lead of [0, 1, 2]) {
    const total = lead + bytes.length;
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = [0, 2, 3][lead]!;
    const end = Math.floor(total / 3) * 4 + [0, 1, 2][total % 3]!;
    const stretch = encoded.slice(start, end);
    if (stretch.length < MIN_FORM_LENGTH) continue;
    out.push(stretch, stretch.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * Every form in which a provider could echo a secret: as it is, JSON-escaped, URL-encoded (as in a query string or
 * a form body, either case of hex digits) and base64 (as in a Basic header, also URL-safe). Longest first, so a
 * longer form is removed whole before a shorter one inside it.
 */
export function secretForms(secrets: readonly (string | null | undefined)[]): { form: string; base64: boolean }[] {
  const forms = new Map<string, boolean>();
  for (const secret of checked(secrets)) {
    const url = encodeURIComponent(secret);
    for (const form of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      url,
      url.replace(/%20/g, '+'),
      url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    ])
      forms.set(form, false);
    for (const form of base64Stretches(secret)) if (!forms.has(form)) forms.set(form, true);
  }
  return [...forms].map(([form, base64]) => ({ form, base64 })).sort((a, b) => b.form.length - a.form.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * True when `text` (typically a JSON serialization) contains a secret value as it is or JSON-escaped. Cheap
 * enough for every call result; what a provider says is cleaned with {@link redact}, which knows more forms.
 */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return checked(secrets).some((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));
}

type Forms = ReturnType<typeof secretForms>;

const removeForms = (text: string, forms: Forms): string =>
  forms.reduce((t, { form, base64 }) => {
    if (!t.includes(form)) return t;
    if (!base64) return t.split(form).join(SECRET_REMOVED);
    // The base64 characters on either side carry a few bits of the secret too (and of its neighbours): they go
    // with it, and so does the padding.
    const around = new RegExp(`[A-Za-z0-9+/_-]?${escapeRegExp(form)}[A-Za-z0-9+/_-]?=*`, 'g');
    return t.replace(around, SECRET_REMOVED);
  }, text);

/** Replaces every occurrence of a secret, in any of its {@link secretForms}, with {@link SECRET_REMOVED}. */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  return removeForms(text, secretForms(secrets));
}

function removeDeep<T>(value: T, forms: Forms): T {
  if (typeof value === 'string') return removeForms(value, forms) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => removeDeep(v, forms)) as T;
  const proto: unknown = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  // Plain objects only: anything else (a Date) is kept as it is, as JSON would write it.
  if (proto === Object.prototype || proto === null) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, removeDeep(v, forms)])) as T;
  }
  return value;
}

/** A copy of plain data (an AppError, a provider answer) with every string in it {@link redact}ed. */
export function redactDeep<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const forms = secretForms(secrets);
  return forms.length ? removeDeep(value, forms) : value;
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
