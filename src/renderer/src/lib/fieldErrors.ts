import type { AppError } from '@shared/result';

/** What a field's `aria-describedby` points at: its error (`<id>-error`) when it has one, else its help line. */
export const describedBy = (id: string, error: string | undefined, help: string | undefined) =>
  error ? `${id}-error` : help ? `${id}-help` : undefined;

/** Field errors keyed by form field (the schemas nest secrets under `secrets.`), for the forms to show under each. */
export function normalizeFields(error: AppError | null): Record<string, string> {
  if (!error) return {};
  const entries = Object.entries(error.fields ?? (error.field ? { [error.field]: error.message } : {}));
  return Object.fromEntries(entries.map(([field, message]) => [field.replace(/^secrets\./, ''), message]));
}
