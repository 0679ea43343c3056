import { ErrorCode, type AppError } from '../../shared/result';

/** A provider answer as received: HTTP status and the raw body text. */
export interface RawResponse {
  status: number;
  body: string;
}

type Json = Record<string, unknown>;

/** Parses a body leniently: JSON when it is JSON, otherwise null (never throws). */
export function parseBody(body: string): unknown {
  if (!body || !body.trim()) return null;
  try {
    return JSON.parse(body);
  } catch {
    // Some published error bodies carry trailing commas; try once more without them.
    try {
      return JSON.parse(body.replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return null;
    }
  }
}

/** A plain JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The result flag of any envelope form: `Status`, `status` or (inventory control) `Success`. */
export function resultFlag(body: unknown): string | null {
  if (!isObject(body)) return null;
  for (const key of ['Status', 'status', 'Success', 'success']) {
    const v = body[key];
    if (typeof v === 'string') return v;
    if (typeof v === 'boolean') return v ? 'Success' : 'Fail';
  }
  return null;
}

/** True when the envelope says Success (in any of its spellings). */
export function isSuccess(body: unknown): boolean {
  return resultFlag(body)?.toLowerCase() === 'success';
}

interface ProviderProblem {
  code: string | null;
  text: string;
  field?: string;
}

/**
 * Collects every error the envelope carries, whatever its form: `Errors` as an array or one object, the payment
 * host's `ErrorMessages`, the messaging `response` (text or array), and `Message` when nothing else names a problem.
 */
export function envelopeProblems(body: unknown): ProviderProblem[] {
  if (!isObject(body)) return [];
  const problems: ProviderProblem[] = [];
  const errors = body.Errors ?? body.errors;
  const list = Array.isArray(errors) ? errors : isObject(errors) ? [errors] : [];
  for (const e of list) {
    if (!isObject(e)) continue;
    const text = String(e.ShortText ?? e.shortText ?? e.Message ?? e.message ?? '').trim();
    const code = e.Code == null ? null : String(e.Code);
    if (text || code) problems.push({ code, text: text || `Error ${code}` });
  }
  const messages = body.ErrorMessages ?? body.errorMessages;
  const messageList = Array.isArray(messages) ? messages : typeof messages === 'string' && messages ? [messages] : [];
  for (const m of messageList) {
    // Payment host form: "field : reason".
    const match = /^\s*([\w.[\]]+)\s+:\s+(.+)$/.exec(String(m));
    problems.push(match ? { code: null, field: match[1], text: match[2]! } : { code: null, text: String(m) });
  }
  const response = body.response;
  if (resultFlag(body)?.toLowerCase() !== 'success') {
    if (typeof response === 'string' && response) problems.push({ code: null, text: response });
    if (Array.isArray(response)) {
      for (const r of response) {
        const text = isObject(r) ? String(r.message ?? '') : String(r);
        if (text) problems.push({ code: null, text });
      }
    }
  }
  const message = body.Message ?? body.message;
  if (problems.length === 0 && typeof message === 'string' && message) problems.push({ code: null, text: message });
  return problems;
}

/** True for answers where trying the same request later can succeed. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * One normalized error for a failed provider answer. `fieldFor` maps the provider's wording to the form field
 * the owner has to fix (each endpoint knows its own fields).
 */
export function providerError(
  raw: RawResponse,
  what: string,
  fieldFor: (problem: ProviderProblem) => string | undefined = (p) => p.field,
): AppError {
  const body = parseBody(raw.body);
  const problems = envelopeProblems(body);
  const first = problems[0];
  const retryable = isRetryableStatus(raw.status);
  if (!first) {
    const why =
      body === null && raw.body.trim()
        ? 'answered with something that is not JSON'
        : raw.status >= 200 && raw.status < 300
          ? 'did not confirm success'
          : 'gave no reason';
    return {
      code: raw.status === 401 ? ErrorCode.Unauthorized : ErrorCode.Provider,
      message: `${what} failed: the provider ${why} (HTTP ${raw.status}).`,
      httpStatus: raw.status,
      retryable,
    };
  }
  const field = fieldFor(first);
  const fields: Record<string, string> = {};
  for (const p of problems) {
    const f = fieldFor(p);
    if (f && !(f in fields)) fields[f] = p.text;
  }
  const text = first.text.replace(/\.$/, '');
  return {
    // A refused credential is `unauthorized` whatever code the provider used; the provider's own code is kept.
    code: raw.status === 401 ? ErrorCode.Unauthorized : (first.code ?? ErrorCode.Provider),
    ...(first.code ? { providerCode: first.code } : {}),
    message: `${what} failed: ${text}${first.code ? ` (code ${first.code})` : ''}.`,
    ...(field ? { field } : {}),
    ...(Object.keys(fields).length ? { fields } : {}),
    httpStatus: raw.status,
    retryable,
  };
}
