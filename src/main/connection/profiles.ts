import { clientIdFromDomain } from '../../shared/clientId';
import type { ConnectionProfileView } from '../../shared/connection';
import { DEFAULT_BASE_URLS, DEMO_CREDENTIALS, ENVIRONMENTS, type Environment } from '../../shared/environments';
import { SECRET_NAMES, type ConnectionProfile, type SecretName } from '../../shared/connection';
import type { Secrets } from '../config/secrets';
import type { Settings } from '../config/settings';

/** The non-secret part of a profile as stored in settings. */
export interface StoredProfile {
  mainBaseUrl: string;
  tokenBaseUrl: string;
  domain: string;
  facilityAppId: string;
  paymentApiName: string;
  notificationUser: string;
}

/** A profile with its secrets resolved: what the provider client needs. Never leaves the core. */
export interface ResolvedProfile extends StoredProfile {
  environment: Environment;
  clientId: string;
  secrets: Record<SecretName, string | null>;
}

export const secretKey = (environment: Environment, name: SecretName | 'token') => `${environment}.${name}`;

/** URLs of the in-process demo provider, known once it listens. */
export interface DemoUrls {
  mainBaseUrl: string;
  tokenBaseUrl: string;
}

const DEMO_SECRETS: Record<SecretName, string> = {
  clientSecret: DEMO_CREDENTIALS.clientSecret,
  facilityApiKey: DEMO_CREDENTIALS.facilityApiKey,
  paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
  notificationPassword: DEMO_CREDENTIALS.notificationPassword,
};

/** Reads and writes connection profiles: fields in settings, secrets in the secret store. */
export function createProfileStore(deps: {
  settings: Settings;
  secrets: Secrets;
  /** Where the demo provider listens while it runs (it runs only while the demo is the active provider). */
  demoUrls: () => DemoUrls | null;
}) {
  const { settings, secrets } = deps;

  const defaults = (environment: Environment): StoredProfile => {
    if (environment === 'demo') {
      return {
        mainBaseUrl: deps.demoUrls()?.mainBaseUrl ?? '',
        tokenBaseUrl: deps.demoUrls()?.tokenBaseUrl ?? '',
        domain: DEMO_CREDENTIALS.domain,
        facilityAppId: DEMO_CREDENTIALS.facilityAppId,
        paymentApiName: DEMO_CREDENTIALS.paymentApiName,
        notificationUser: DEMO_CREDENTIALS.notificationUser,
      };
    }
    const urls = DEFAULT_BASE_URLS[environment];
    return {
      mainBaseUrl: urls.main,
      tokenBaseUrl: urls.token,
      domain: '',
      facilityAppId: '',
      paymentApiName: '',
      notificationUser: '',
    };
  };

  const stored = (environment: Environment) => settings.get<StoredProfile>(`connection.profiles.${environment}`);

  const fields = (environment: Environment): StoredProfile => {
    const merged = { ...defaults(environment), ...stored(environment) };
    // The demo provider's port changes every time it starts: its URLs always come from the running emulator.
    if (environment !== 'demo') return merged;
    const demo = defaults('demo');
    return { ...merged, mainBaseUrl: demo.mainBaseUrl, tokenBaseUrl: demo.tokenBaseUrl };
  };

  const secret = (environment: Environment, name: SecretName): string | null =>
    secrets.get(secretKey(environment, name)) ?? (environment === 'demo' ? DEMO_SECRETS[name] : null);

  const resolveInput = (input: ConnectionProfile): ResolvedProfile => {
    const base = fields(input.environment);
    const isDemo = input.environment === 'demo';
    const f: StoredProfile = {
      mainBaseUrl: isDemo ? base.mainBaseUrl : (input.mainBaseUrl ?? base.mainBaseUrl),
      tokenBaseUrl: isDemo ? base.tokenBaseUrl : (input.tokenBaseUrl ?? base.tokenBaseUrl),
      domain: input.domain,
      facilityAppId: input.facilityAppId,
      paymentApiName: input.paymentApiName,
      notificationUser: input.notificationUser,
    };
    return {
      environment: input.environment,
      ...f,
      clientId: clientIdFromDomain(f.domain),
      secrets: Object.fromEntries(
        SECRET_NAMES.map((n) => [n, input.secrets[n] ?? secret(input.environment, n)]),
      ) as Record<SecretName, string | null>,
    };
  };

  return {
    view(environment: Environment): ConnectionProfileView {
      const f = fields(environment);
      return {
        environment,
        ...f,
        clientId: f.domain ? clientIdFromDomain(f.domain) : '',
        secretsSet: Object.fromEntries(SECRET_NAMES.map((n) => [n, secret(environment, n) !== null])) as Record<
          SecretName,
          boolean
        >,
        saved: stored(environment) !== undefined,
      };
    },
    /** The saved profile of an environment, secrets included. */
    resolve(environment: Environment): ResolvedProfile {
      return resolveInput({ environment, ...fields(environment), secrets: {} });
    },
    /** The profile a form submission describes: typed secrets win, untyped ones come from the store. */
    resolveInput,
    save(input: ConnectionProfile): void {
      const r = resolveInput(input);
      const { environment, clientId: _clientId, secrets: _secrets, ...toStore } = r;
      // Secrets first: if the secret store refuses (no keyring), nothing of the profile is half-saved.
      for (const name of SECRET_NAMES) {
        const typed = input.secrets[name];
        if (typed !== undefined) secrets.set(secretKey(environment, name), typed);
      }
      settings.set(`connection.profiles.${environment}`, toStore);
      settings.set('connection.active', environment);
    },
    active(): Environment | undefined {
      const a = settings.get<string>('connection.active');
      return (ENVIRONMENTS as readonly string[]).includes(a ?? '') ? (a as Environment) : undefined;
    },
  };
}
export type ProfileStore = ReturnType<typeof createProfileStore>;
