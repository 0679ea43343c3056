import { computed } from 'vue';
import { DETAILS_LABELS, type DetailsField } from '@shared/property';
import { useDetailsStore } from './detailsStore';

/** A details field's input id (no dots: it is used in CSS selectors), its test id and its label. */
export function fieldIds(field: DetailsField) {
  const id = `details-${field.replace(/\./g, '-')}`;
  return { id, testid: `details-${field}`, label: DETAILS_LABELS[field] };
}

/** What a field's control needs: the details store, the field's ids and label, and its problem (live). */
export function useDetailsField(field: () => DetailsField) {
  const details = useDetailsStore();
  const ids = computed(() => fieldIds(field()));
  const error = computed(() => details.errors[field()]);
  return { details, ids, error };
}
