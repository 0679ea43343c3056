import { createHash } from 'node:crypto';
import type { ConnectionState, ConnectionTestResult, CredentialPart, PartCheckResult } from '../../shared/connection';
import { ENVIRONMENTS, type Environment } from '../../shared/environments';
import { AppFailure, ErrorCode, type AppError } from '../../shared/result';
import { SECRET_NAMES, type ConnectionProfile, type SecretName } from '../../shared/connection';
import type { Database } from '../db/database';
import type { CoreBus } from '../bus';
import type { EventBus } from '../gateway/events';
import { bindSecretsToDatabase, redact, redactFailure, withInnerTokens } from '../gateway/secretLeaks';
import { issueToken, validateToken } from '../provider/auth';
import { createProviderClient, type ProviderClient } from '../provider/client';
import { createHostClient, PROVIDER_LIMITS } from '../provider/http';
import { assertTokenFitsEnvironment, createTokenManager, type TokenManager } from '../provider/tokenManager';
import type { Secrets } from '../config/secrets';
import { checkPart } from './partChecks';
import { secretKey, type ProfileStore, type ResolvedProfile } from './profiles';

export interface ConnectionServiceDeps {
  profiles: ProfileStore;
  secrets: Secrets;
  db: Database;
  events: EventBus;
  bus: CoreBus;
  now: () => number;
  /** Set by INNKEEPER_DEMO=1: this run uses the demo provider whatever was saved. */
  forceDemo: boolean;
}

type HostClient = ReturnType<typeof createHostClient>;

/** Identifies the credentials a token was issued for; a cached token is reused only for the same ones. */
function fingerprint(p: ResolvedProfile): string {
  return createHash('sha256')
    .update([p.environment, p.mainBaseUrl, p.clientId, p.secrets.clientSecret ?? ''].join('\n'))
    .digest('hex');
}

function requireClientSecret(p: ResolvedProfile): string {
  if (p.secrets.clientSecret) return p.secrets.clientSecret;
  throw new AppFailure({
    code: ErrorCode.NotConfigured,
    message: 'Enter the client secret from the Su partner console.',
    field: 'clientSecret',
    retryable: false,
  });
}

/** A profile's secrets, typed ones included: none may be kept or shown from what the provider says. */
const secretsOf = (p: ResolvedProfile): (string | null)[] => Object.values(p.secrets);

/** Connection settings, "Test connection", and the token managers every provider call will use. */
export function createConnectionService(deps: ConnectionServiceDeps) {
  const { profiles, secrets, db, events, bus, now } = deps;
  /** The renderer and the other features hear the same change. */
  const announce = (state: ConnectionState): void => {
    events.emit('connection.changed', state);
    bus.emit('connectionChanged', state);
  };

  /** Every saved secret, and the bare access tokens inside the saved token entries. */
  const savedSecrets = (): string[] => withInnerTokens(secrets.values());
  // SECURITY: every feature writing a provider text into this database removes the saved secrets from it too.
  bindSecretsToDatabase(db.db, savedSecrets);
  /** One token manager per environment, for the credentials saved now (replaced when they change). */
  const managers = new Map<Environment, { fingerprint: string; manager: TokenManager }>();

  const active = (): Environment => (deps.forceDemo ? 'demo' : (profiles.active() ?? 'demo'));

  const persistedToken = (environment: Environment, fp: string) => {
    try {
      const parsed = JSON.parse(secrets.get(secretKey(environment, 'token')) ?? 'null') as {
        token: string;
        expiresAt: number;
        fingerprint: string;
      } | null;
      return parsed?.fingerprint === fp && typeof parsed.token === 'string' ? parsed : null;
    } catch {
      return null; // a damaged cache entry only costs one new token
    }
  };

  /** The token manager for an environment's saved credentials. */
  const tokenManager = (environment: Environment): TokenManager => {
    const profile = profiles.resolve(environment);
    const fp = fingerprint(profile);
    const current = managers.get(environment);
    if (current?.fingerprint === fp) return current.manager;
    // A token request ends before the calls waiting for it do, so they hear why (see PROVIDER_LIMITS).
    const http = createHostClient(profile.mainBaseUrl, PROVIDER_LIMITS.tokenDeadlineMs);
    const manager = createTokenManager({
      environment,
      now,
      initial: persistedToken(environment, fp),
      issue: () =>
        issueToken(
          http,
          { clientId: profile.clientId, clientSecret: requireClientSecret(profile) },
          secretsOf(profile),
        ),
      onIssued: (t) => {
        secrets.set(secretKey(environment, 'token'), JSON.stringify({ ...t, fingerprint: fp }));
        announce(state());
      },
    });
    managers.set(environment, { fingerprint: fp, manager });
    return manager;
  };

  const state = (): ConnectionState => {
    const env = active();
    const expiresAt = tokenManager(env).expiresAt();
    return {
      active: env,
      profiles: Object.fromEntries(ENVIRONMENTS.map((e) => [e, profiles.view(e)])) as ConnectionState['profiles'],
      token: expiresAt ? { environment: env, expiresAt } : null,
      firstRun: profiles.active() === undefined,
      savedActive: profiles.active() ?? null,
      demoForced: deps.forceDemo,
      unreadableSecrets: secrets
        .unreadable()
        .map((key) => key.split('.') as [Environment, string])
        .filter((pair): pair is [Environment, SecretName] => (SECRET_NAMES as readonly string[]).includes(pair[1]))
        .map(([environment, name]) => ({ environment, name })),
    };
  };

  const recordCheck = (environment: Environment, outcome: { ok: true } | { ok: false; error: AppError }) => {
    db.db
      .prepare(
        'INSERT INTO connection_check (environment, checked_at, ok, error_code, error_field, message) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        environment,
        now(),
        outcome.ok ? 1 : 0,
        outcome.ok ? null : String(outcome.error.code),
        outcome.ok ? null : (outcome.error.field ?? null),
        // The caller removed the profile's secrets; the saved ones are removed again here, whatever the caller.
        outcome.ok ? 'Connection works' : redact(outcome.error.message, savedSecrets()),
      );
  };

  /**
   * The saved settings' token through their token manager: a cached one is reused (the provider allows only
   * 30 per hour) after a live check; one the provider refuses is dropped and a new one issued once.
   */
  const checkSaved = async (environment: Environment, http: HostClient) => {
    const manager = tokenManager(environment);
    const profileSecrets = secretsOf(profiles.resolve(environment));
    let token = await manager.getToken();
    let checked: { propertyCount: number | null };
    try {
      checked = await validateToken(http, token, profileSecrets);
    } catch (error) {
      if (!(error instanceof AppFailure) || error.error.httpStatus !== 401) throw error;
      manager.invalidate(token);
      token = await manager.getToken();
      checked = await validateToken(http, token, profileSecrets);
    }
    const expiresAt = manager.expiresAt() ?? now();
    return { ...checked, expiresAt, expiresInSeconds: Math.round((expiresAt - now()) / 1000) };
  };

  /** Settings that are not saved yet: a token issued and validated for this test only, never cached. */
  const checkUnsaved = async (profile: ResolvedProfile, http: HostClient) => {
    const startedAt = now();
    const issued = await issueToken(
      http,
      { clientId: profile.clientId, clientSecret: requireClientSecret(profile) },
      secretsOf(profile),
    );
    assertTokenFitsEnvironment(issued.token, profile.environment);
    const checked = await validateToken(http, issued.token, secretsOf(profile));
    return {
      ...checked,
      expiresAt: startedAt + issued.expiresInSeconds * 1000,
      expiresInSeconds: issued.expiresInSeconds,
    };
  };

  return {
    state,
    /** The provider in use: the saved one, or demo (before the first save, and under INNKEEPER_DEMO=1). */
    active,
    tokenManager,

    /** The provider client for an environment's saved settings (the active one by default). */
    provider(environment: Environment = active()): ProviderClient {
      const p = profiles.resolve(environment);
      return createProviderClient({
        mainBaseUrl: p.mainBaseUrl,
        tokenBaseUrl: p.tokenBaseUrl,
        tokens: tokenManager(environment),
        credentials: {
          facilityAppId: p.facilityAppId,
          facilityApiKey: p.secrets.facilityApiKey,
          notificationUser: p.notificationUser,
          notificationPassword: p.secrets.notificationPassword,
          paymentApiName: p.paymentApiName,
          paymentApiKey: p.secrets.paymentApiKey,
          clientSecret: p.secrets.clientSecret,
        },
      });
    },

    save(input: ConnectionProfile): ConnectionState {
      profiles.save(input);
      const next = state();
      announce(next);
      return next;
    },

    /**
     * Issues a token with the submitted (possibly unsaved) settings and validates it on pmsproperty.
     * When the settings equal the saved ones, the token is kept, so the test does not waste one of the 30
     * tokens the provider allows per hour.
     */
    async test(input: ConnectionProfile): Promise<ConnectionTestResult> {
      const profile = profiles.resolveInput(input);
      if (profile.environment === 'demo' && !profile.mainBaseUrl) {
        throw new AppFailure({
          code: ErrorCode.NotConfigured,
          message: 'The demo provider runs only while it is in use: save it as your provider, then test it.',
          field: 'environment',
          retryable: false,
        });
      }
      try {
        const http = createHostClient(profile.mainBaseUrl, 15_000);
        const isSaved = fingerprint(profiles.resolve(profile.environment)) === fingerprint(profile);
        const { expiresAt, expiresInSeconds, propertyCount } = isSaved
          ? await checkSaved(profile.environment, http)
          : await checkUnsaved(profile, http);
        recordCheck(profile.environment, { ok: true });
        announce(state());
        return {
          environment: profile.environment,
          tokenExpiresAt: expiresAt,
          expiresInSeconds,
          validated: true,
          propertyCount,
          checkedAt: now(),
        };
      } catch (thrown) {
        // SECURITY: the typed (unsaved) secrets and the saved ones of this environment never come back in the
        // error nor go into the check's record, whichever step failed.
        const saved = secretsOf(profiles.resolve(profile.environment));
        const error = redactFailure(thrown, [...secretsOf(profile), ...saved, ...savedSecrets()]);
        if (error instanceof AppFailure) recordCheck(profile.environment, { ok: false, error: error.error });
        throw error;
      }
    },

    /**
     * The setup guide's check of one part (facility setup, payments, notifications) with the settings on screen:
     * whether Su accepts its credentials, in the owner's words, and the field to fix.
     */
    async checkPart(part: CredentialPart, input: ConnectionProfile): Promise<PartCheckResult> {
      const profile = profiles.resolveInput(input);
      if (profile.environment === 'demo' && !profile.mainBaseUrl) {
        return {
          part,
          ok: false,
          text: 'The demo provider runs only while it is in use: save it as your provider, then check again.',
          field: 'environment',
          checkedAt: now(),
        };
      }
      return checkPart(part, profile, now);
    },

    /** Whether the last "Test connection" of an environment worked (false before any). */
    lastCheckOk(environment: Environment): boolean {
      const row = db.db
        .prepare('SELECT ok FROM connection_check WHERE environment = ? ORDER BY checked_at DESC, id DESC LIMIT 1')
        .get(environment) as { ok: number } | undefined;
      return row?.ok === 1;
    },

    /** Forgets the cached token of an environment (the next call issues a new one). */
    discardToken(environment: Environment): ConnectionState {
      secrets.delete(secretKey(environment, 'token'));
      managers.delete(environment);
      const next = state();
      announce(next);
      return next;
    },
  };
}
export type ConnectionService = ReturnType<typeof createConnectionService>;
