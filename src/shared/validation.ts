import { z } from 'zod';
import { ErrorCode, type AppError } from './result';

/**
 * Turns a zod failure into one {@link AppError}: the first problem becomes `field`/`message`, and every
 * problem is listed in `fields` so a form can mark all of them at once.
 */
export function validationError(error: z.ZodError, prefix = ''): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (!(path in fields)) fields[path] = issue.message;
  }
  const [field, message] = Object.entries(fields)[0] ?? ['', 'The input is not valid.'];
  return {
    code: ErrorCode.Validation,
    message: field ? `${field}: ${message}` : message,
    ...(field ? { field } : {}),
    fields,
    retryable: false,
  };
}

/** Parses `value` with `schema`; returns the data or an {@link AppError} naming the field. */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; error: AppError } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: validationError(parsed.error) };
}

/** The argument of a method that takes none. */
export const noArgs = z.object({}).strict();

/** The argument of a method that names one row by its id. */
export const idArgSchema = z.object({ id: z.number().int().positive() }).strict();
