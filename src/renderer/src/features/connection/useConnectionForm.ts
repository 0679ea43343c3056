import { computed, reactive, ref, watch, type Ref } from 'vue';
import type { ConnectionState } from '@shared/connection';
import {
  connectionProfileInputSchema,
  SECRET_NAMES,
  type ConnectionProfileInput,
  type SecretName,
} from '@shared/connection';
import type { Environment } from '@shared/environments';
import { check } from '@shared/validation';
import { normalizeFields } from '@renderer/lib/fieldErrors';

export interface ConnectionFormModel {
  mainBaseUrl: string;
  tokenBaseUrl: string;
  domain: string;
  facilityAppId: string;
  paymentApiName: string;
  notificationUser: string;
  secrets: Record<SecretName, string>;
}

/** The non-secret fields of a profile, as the form edits them. */
export const PROFILE_FIELDS = [
  'mainBaseUrl',
  'tokenBaseUrl',
  'domain',
  'facilityAppId',
  'paymentApiName',
  'notificationUser',
] as const;

const emptySecrets = (): Record<SecretName, string> =>
  Object.fromEntries(SECRET_NAMES.map((n) => [n, ''])) as Record<SecretName, string>;

/**
 * The Connection form: one editable copy of the chosen environment's profile, what changed, the input the
 * core expects, and local validation with the same schema the core applies.
 */
export function useConnectionForm(state: Ref<ConnectionState | null>) {
  const environment = ref<Environment>('demo');
  const model = reactive<ConnectionFormModel>({
    mainBaseUrl: '',
    tokenBaseUrl: '',
    domain: '',
    facilityAppId: '',
    paymentApiName: '',
    notificationUser: '',
    secrets: emptySecrets(),
  });
  const localErrors = ref<Record<string, string>>({});

  const profile = computed(() => state.value?.profiles[environment.value] ?? null);

  /** Loads the chosen environment's saved values into the form. */
  function load() {
    const p = profile.value;
    if (!p) return;
    Object.assign(model, {
      mainBaseUrl: p.mainBaseUrl,
      tokenBaseUrl: p.tokenBaseUrl,
      domain: p.domain,
      facilityAppId: p.facilityAppId,
      paymentApiName: p.paymentApiName,
      notificationUser: p.notificationUser,
      secrets: emptySecrets(),
    });
    localErrors.value = {};
  }

  const dirty = computed(() => {
    const p = profile.value;
    if (!p) return false;
    // Choosing another environment than the saved one is itself a change to save.
    if (environment.value !== (state.value?.savedActive ?? 'demo')) return true;
    return PROFILE_FIELDS.some((f) => model[f].trim() !== p[f]) || SECRET_NAMES.some((n) => model.secrets[n] !== '');
  });

  function toInput(): ConnectionProfileInput {
    const secrets: Partial<Record<SecretName, string>> = {};
    for (const n of SECRET_NAMES) if (model.secrets[n].trim()) secrets[n] = model.secrets[n];
    return {
      environment: environment.value,
      ...(environment.value === 'demo' ? {} : { mainBaseUrl: model.mainBaseUrl, tokenBaseUrl: model.tokenBaseUrl }),
      domain: model.domain,
      facilityAppId: model.facilityAppId,
      paymentApiName: model.paymentApiName,
      notificationUser: model.notificationUser,
      secrets,
    };
  }

  /** Validates locally; returns the input when it is fine, otherwise marks the fields and returns null. */
  function validated(): ConnectionProfileInput | null {
    const input = toInput();
    const result = check(connectionProfileInputSchema, input);
    localErrors.value = result.ok ? {} : normalizeFields(result.error);
    return result.ok ? input : null;
  }

  watch(profile, (p, before) => {
    // Reload the form when another environment is picked, or when the first state arrives.
    if (p && (!before || p.environment !== before.environment || !dirty.value)) load();
  });

  /** Back to what is saved: the saved environment and its values. */
  function revert() {
    environment.value = state.value?.savedActive ?? state.value?.active ?? 'demo';
    load();
  }

  return { environment, model, profile, dirty, localErrors, load, revert, toInput, validated };
}
