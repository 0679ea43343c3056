import { createHash } from 'node:crypto';
import type { ConnectionState, ConnectionTestResult } from '../../../shared/contract';
import { ENVIRONMENTS, type Environment } from '../../../shared/environments';
import { AppFailure, ErrorCode, type AppError } from '../../../shared/result';
import { SECRET_NAMES, type ConnectionProfile, type SecretName } from '../../../shared/schemas/connection';
import type { Database } from '../../db/database';
import type { EventBus } from '../../events';
import { issueToken, validateToken } from '../../provider/auth';
import { createHostClient } from '../../provider/http';
import { assertTokenFitsEnvironment, createTokenManager, type TokenManager } from '../../provider/tokenManager';
import type { SecretStore } from '../../secrets/secretStore';
import { secretKey, type ProfileStore, type ResolvedProfile } from './profiles';

export interface ConnectionServiceDeps {
  profiles: ProfileStore;
  secrets: SecretStore;
  db: Database;
  events: EventBus;
  now: () => number;
  /** Set by INNKEEPER_DEMO=1: this run uses the demo provider whatever was saved. */
  forceDemo: boolean;
}

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

/** Connection settings, "Test connection", and the token managers every provider call will use. */
export function createConnectionService(deps: ConnectionServiceDeps) {
  const { profiles, secrets, db, events, now } = deps;
  const managers = new Map<string, TokenManager>();

  const active = (): Environment => (deps.forceDemo ? 'demo' : (profiles.active() ?? 'demo'));

  const persistedToken = (environment: Environment, fp: string) => {
    const raw = secrets.get(secretKey(environment, 'token'));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { token: string; expiresAt: number; fingerprint: string };
    return parsed.fingerprint === fp ? { token: parsed.token, expiresAt: parsed.expiresAt } : null;
  };
  const persistToken = (environment: Environment, fp: string, t: { token: string; expiresAt: number }) =>
    secrets.set(secretKey(environment, 'token'), JSON.stringify({ ...t, fingerprint: fp }));

  /** The token manager for an environment's saved credentials (one per set of credentials). */
  const tokenManager = (environment: Environment): TokenManager => {
    const profile = profiles.resolve(environment);
    const fp = fingerprint(profile);
    let manager = managers.get(fp);
    if (!manager) {
      const http = createHostClient(profile.mainBaseUrl);
      manager = createTokenManager({
        environment,
        now,
        initial: persistedToken(environment, fp),
        issue: () => issueToken(http, { clientId: profile.clientId, clientSecret: requireClientSecret(profile) }),
        onIssued: (t) => {
          persistToken(environment, fp, t);
          events.emit('connection.changed', state());
        },
      });
      managers.set(fp, manager);
    }
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
        outcome.ok ? 'Connection works' : outcome.error.message,
      );
  };

  return {
    state,
    tokenManager,

    save(input: ConnectionProfile): ConnectionState {
      profiles.save(input);
      const next = state();
      events.emit('connection.changed', next);
      return next;
    },

    /**
     * Issues a token with the submitted (possibly unsaved) settings and validates it on pmsproperty.
     * When the settings equal the saved ones, the token is kept, so the test does not waste one of the 30
     * tokens the provider allows per hour.
     */
    async test(input: ConnectionProfile): Promise<ConnectionTestResult> {
      const profile = profiles.resolveInput(input);
      try {
        const clientSecret = requireClientSecret(profile);
        const http = createHostClient(profile.mainBaseUrl, 15_000);
        const startedAt = now();
        const issued = await issueToken(http, { clientId: profile.clientId, clientSecret });
        assertTokenFitsEnvironment(issued.token, profile.environment);
        const { propertyCount } = await validateToken(http, issued.token);
        const expiresAt = startedAt + issued.expiresInSeconds * 1000;
        const saved = profiles.resolve(profile.environment);
        if (fingerprint(saved) === fingerprint(profile)) {
          persistToken(profile.environment, fingerprint(profile), { token: issued.token, expiresAt });
          managers.delete(fingerprint(profile));
        }
        recordCheck(profile.environment, { ok: true });
        events.emit('connection.changed', state());
        return {
          environment: profile.environment,
          tokenExpiresAt: expiresAt,
          expiresInSeconds: issued.expiresInSeconds,
          validated: true,
          propertyCount,
          checkedAt: now(),
        };
      } catch (error) {
        if (error instanceof AppFailure) recordCheck(profile.environment, { ok: false, error: error.error });
        throw error;
      }
    },

    /** Forgets the cached token of an environment (the next call issues a new one). */
    discardToken(environment: Environment): ConnectionState {
      secrets.delete(secretKey(environment, 'token'));
      for (const [fp, m] of managers) if (m.environment === environment) managers.delete(fp);
      const next = state();
      events.emit('connection.changed', next);
      return next;
    },
  };
}
export type ConnectionService = ReturnType<typeof createConnectionService>;
