import { DETAILS_LABELS, type DetailsField } from '@shared/property';

/** A details field's input id (no dots: it is used in CSS selectors), its test id and its label. */
export function fieldIds(field: DetailsField) {
  const id = `details-${field.replace(/\./g, '-')}`;
  return { id, testid: `details-${field}`, label: DETAILS_LABELS[field] };
}

/** What `aria-describedby` points at: the field's error when it has one, else its help line. */
export const describedBy = (id: string, error: string | undefined, help: string | undefined) =>
  error ? `${id}-error` : help ? `${id}-help` : undefined;
