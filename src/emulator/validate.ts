/**
 * Small readers for request bodies. They throw {@link Invalid} naming the field path (`facilities[0].facility_id`)
 * and the reason, and each route turns that into its own envelope: the provider answers the same mistake with a
 * different shape on each endpoint.
 */

export class Invalid extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** For envelopes that carry a code (invratecontrol's 925); null when the provider gives none. */
    readonly code: string | null = null,
  ) {
    super(path ? `${path}: ${reason}` : reason);
  }
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/** The body itself must be a JSON object. */
export function body(value: unknown): Json {
  if (!isObject(value)) throw new Invalid('', 'the request body must be a JSON object');
  return value;
}

export function object(parent: Json, key: string, path: string, required: true): Json;
export function object(parent: Json, key: string, path: string, required?: boolean): Json | undefined;
export function object(parent: Json, key: string, path: string, required = false): Json | undefined {
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(join(path, key), 'is required');
    return undefined;
  }
  if (!isObject(value)) throw new Invalid(join(path, key), 'must be an object');
  return value;
}

export function array(parent: Json, key: string, path: string, required: true): unknown[];
export function array(parent: Json, key: string, path: string, required?: boolean): unknown[] | undefined;
export function array(parent: Json, key: string, path: string, required = false): unknown[] | undefined {
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(join(path, key), 'is required');
    return undefined;
  }
  if (!Array.isArray(value)) throw new Invalid(join(path, key), 'must be an array');
  return value;
}

interface StringRules {
  required?: boolean;
  max?: number;
  pattern?: RegExp;
  /** Shown when the pattern does not match. */
  expected?: string;
  /** Accept a JSON number and read it as its decimal text (ids that samples send as numbers). */
  numbers?: boolean;
}

export function string(parent: Json, key: string, path: string, rules: StringRules & { required: true }): string;
export function string(parent: Json, key: string, path: string, rules?: StringRules): string | undefined;
export function string(parent: Json, key: string, path: string, rules: StringRules = {}): string | undefined {
  const at = join(path, key);
  let value = parent[key];
  if (rules.numbers && typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (value === undefined || value === null || value === '') {
    if (rules.required) throw new Invalid(at, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') throw new Invalid(at, 'must be a string');
  if (rules.max !== undefined && value.length > rules.max) {
    throw new Invalid(at, `must be at most ${rules.max} characters (got ${value.length})`);
  }
  if (rules.pattern && !rules.pattern.test(value)) throw new Invalid(at, `must be ${rules.expected ?? 'valid'}`);
  return value;
}

/** An enumerated string; the reason lists the accepted values, as the provider's deserializer does. */
export function oneOf<T extends string>(
  parent: Json,
  key: string,
  path: string,
  allowed: readonly T[],
  required = false,
): T | undefined {
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(join(path, key), `is required; accepted values: [${allowed.join(', ')}]`);
    return undefined;
  }
  return enumValue(value, join(path, key), allowed);
}

export function enumValue<T extends string>(value: unknown, at: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new Invalid(at, `${JSON.stringify(value)} is not one of the accepted values: [${allowed.join(', ')}]`);
  }
  return value as T;
}

export function boolean(parent: Json, key: string, path: string, required: true): boolean;
export function boolean(parent: Json, key: string, path: string, required?: boolean): boolean | undefined;
export function boolean(parent: Json, key: string, path: string, required = false): boolean | undefined {
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(join(path, key), 'is required');
    return undefined;
  }
  if (typeof value !== 'boolean') throw new Invalid(join(path, key), 'must be true or false');
  return value;
}

/** A JSON number (integer when asked, within bounds when given). */
export function number(
  parent: Json,
  key: string,
  path: string,
  rules: { required?: boolean; integer?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const at = join(path, key);
  const value = parent[key];
  if (value === undefined || value === null) {
    if (rules.required) throw new Invalid(at, 'is required');
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Invalid(at, 'must be a number');
  if (rules.integer && !Number.isInteger(value)) throw new Invalid(at, 'must be an integer');
  if (rules.min !== undefined && value < rules.min) throw new Invalid(at, `must be at least ${rules.min}`);
  if (rules.max !== undefined && value > rules.max) throw new Invalid(at, `must be at most ${rules.max}`);
  return value;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** International (E.164-like) phone numbers: a plus sign and 7–15 digits. */
export const INTERNATIONAL_PHONE = /^\+[1-9]\d{6,14}$/;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `record[key]` for the record's own keys only, so ids like "constructor" never reach Object.prototype. */
export const own = <T>(record: Record<string, T>, key: string | undefined): T | undefined =>
  key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
