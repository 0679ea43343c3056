import type { AppError } from '@shared/result';

/** Field errors keyed by form field (the schemas nest secrets under `secrets.`), for the forms to show under each. */
export function normalizeFields(error: AppError | null): Record<string, string> {
  if (!error) return {};
  const entries = Object.entries(error.fields ?? (error.field ? { [error.field]: error.message } : {}));
  return Object.fromEntries(entries.map(([field, message]) => [field.replace(/^secrets\./, ''), message]));
}
