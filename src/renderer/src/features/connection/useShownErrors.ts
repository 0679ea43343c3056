import { computed, ref, watch } from 'vue';
import { CREDENTIAL_PARTS, type SecretName } from '@shared/connection';
import { normalizeFields } from '@renderer/lib/fieldErrors';
import type { useConnectionStore } from './connectionStore';
import { PART_FIELDS } from './setupGuide';
import { PROFILE_FIELDS, type useConnectionForm } from './useConnectionForm';

/**
 * The message shown under each field of the Connection form: the form's own check first, then what Su said of the
 * last test or save (until the owner edits that field), then what a setup guide check found (until one of its part's
 * fields changes: that check is then stale and forgotten).
 */
export function useShownErrors(
  form: ReturnType<typeof useConnectionForm>,
  store: ReturnType<typeof useConnectionStore>,
) {
  const valueOf = (field: string) =>
    field in form.model.secrets
      ? form.model.secrets[field as SecretName]
      : form.model[field as (typeof PROFILE_FIELDS)[number]];
  for (const part of CREDENTIAL_PARTS)
    watch(
      () => PART_FIELDS[part].map(valueOf),
      () => store.clearChecks(part),
    );

  // A provider error stays next to its field only until the owner edits that field.
  const edited = ref(new Set<string>());
  watch([() => store.testError, () => store.saveError], () => (edited.value = new Set()));
  for (const f of PROFILE_FIELDS)
    watch(
      () => form.model[f],
      () => edited.value.add(f),
    );
  watch(
    () => ({ ...form.model.secrets }),
    (now, before) => {
      for (const key of Object.keys(now) as SecretName[]) if (now[key] !== before[key]) edited.value.add(key);
    },
  );
  return computed<Record<string, string>>(() => {
    const fromChecks = Object.fromEntries(
      Object.values(store.partChecks).flatMap((c) => (!c.ok && c.field ? [[c.field, c.text]] : [])),
    );
    const fromProvider = { ...normalizeFields(store.testError), ...normalizeFields(store.saveError) };
    for (const f of edited.value) delete fromProvider[f];
    return { ...fromChecks, ...fromProvider, ...form.localErrors.value };
  });
}
