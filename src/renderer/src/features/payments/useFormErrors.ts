import { computed, ref, shallowRef, watch, type WatchSource } from 'vue';
import type { AppError } from '@shared/result';
import { normalizeFields } from '@renderer/lib/fieldErrors';
import { hostFieldText } from './paymentWords';

/**
 * The errors a payment form shows, field by field: its own check (the contract's schema) once the owner left the
 * field or tried to send, live from then on; and the core's or the host's answer ("field : reason", keyed by the
 * form's field names) until the owner edits that field, each a sentence that names its field in words (never the
 * host's `email_address : invalid`). `aliases` moves a field the form does not show next to the one that chose it
 * (the partner id is chosen with the property); anything left without a field is `unplaced`.
 */
export function useFormErrors(
  local: () => Record<string, string>,
  options: { fields: () => readonly string[]; aliases?: Record<string, string> },
) {
  const touched = ref(new Set<string>());
  const tried = ref(false);
  const refusal = shallowRef<AppError | null>(null);
  const edited = ref(new Set<string>());

  const refused = computed(() => {
    const out: Record<string, string> = {};
    for (const [field, message] of Object.entries(normalizeFields(refusal.value))) {
      const at = options.aliases?.[field] ?? field;
      if (!edited.value.has(at) && !(at in out)) out[at] = hostFieldText(field, message);
    }
    return out;
  });
  const errors = computed(() => {
    const own = local();
    const out: Record<string, string> = {};
    for (const [field, message] of Object.entries(own)) {
      if (tried.value || touched.value.has(field)) out[field] = message;
    }
    for (const [field, message] of Object.entries(refused.value)) out[field] ??= message;
    return out;
  });
  /** What the refusal says that no field on screen can show: its field messages, or its message alone. */
  const unplaced = computed(() => {
    if (!refusal.value) return [];
    const shown = options.fields();
    // A refusal about fields is placed (or dropped once the owner edits them); only one without any is a banner.
    if (Object.keys(normalizeFields(refusal.value)).length === 0) return [refusal.value.message];
    const loose = Object.entries(refused.value).filter(([field]) => !shown.includes(field));
    return loose.map(([, message]) => message);
  });

  return {
    errors,
    unplaced,
    refusal,
    tried,
    /** The owner left a field: its own check shows from now on. */
    touch: (field: string) => void (touched.value = new Set([...touched.value, field])),
    /** Whether the form passes its own check; from now on every field's check shows. */
    attempt: () => {
      tried.value = true;
      return Object.keys(local()).length === 0;
    },
    /** The core or the host refused: its reasons go next to their fields until each is edited. */
    refuse: (error: AppError | null) => {
      refusal.value = error;
      edited.value = new Set();
    },
    reset: () => {
      touched.value = new Set();
      tried.value = false;
      refusal.value = null;
      edited.value = new Set();
    },
    /** Follows `form`'s fields: a field the owner changes drops the refusal's message about it. */
    follow: (form: WatchSource<Record<string, unknown>>) =>
      watch(form, (now, before) => {
        if (!before) return;
        const changed = Object.keys(now).filter((k) => now[k] !== before[k]);
        if (changed.length) edited.value = new Set([...edited.value, ...changed]);
      }),
  };
}

/** The first problem in a form brought into view and focused: in a long dialog it may be far from the button. */
export function showFirstError(root: string): void {
  requestAnimationFrame(() => {
    const alert = document.querySelector(`${root} [role=alert]`);
    alert?.scrollIntoView({ block: 'center' });
    const field = alert?.closest('.field')?.querySelector<HTMLElement>('input, textarea, [tabindex="0"]');
    field?.focus();
  });
}
