import type { FastifyInstance } from 'fastify';
import type { SecretStore } from '../config/secretStore';
import type { SettingsStore } from '../config/settingsStore';
import type { FeatureContext } from '../featureContext';
import { pushHandlers } from './handlers';
import type { IngestResult } from './ingest';
import { createPushService, type PushEnvironment, type PushServiceDeps } from './pushService';
import type { TunnelProvider } from './tunnel';

/**
 * The push listener Su delivers guest messages and reviews to, with its tunnel and the store's health. `news`
 * hears each push once it is acknowledged (the inbox's news); `publicRoutes` are the photo addresses Su fetches.
 */
export function createPushFeature(
  context: FeatureContext,
  deps: {
    settings: SettingsStore;
    secrets: SecretStore;
    env?: PushEnvironment | undefined;
    demo?: PushServiceDeps['demo'] | undefined;
    tunnelProvider?: TunnelProvider | undefined;
    publicRoutes: (app: FastifyInstance) => void;
    /** The inbox's news of each push filed, and the end of it when the listener stops. */
    news: { afterPush: (result: IngestResult) => void; stop: () => void };
  },
) {
  const push = createPushService({
    publicRoutes: deps.publicRoutes,
    database: context.database,
    settings: deps.settings,
    secrets: deps.secrets,
    env: deps.env ?? {},
    now: context.now,
    onIngested: (result) => {
      deps.news.afterPush(result);
      feature.afterPush(result);
    },
    ...(deps.demo ? { demo: deps.demo } : {}),
    ...(deps.tunnelProvider ? { tunnelProvider: deps.tunnelProvider } : {}),
  });
  const feature = pushHandlers({ push, events: context.events });
  return {
    push,
    handlers: feature.handlers,
    /** Stops the listener, and the news of pushes filed just before. */
    stop: async () => {
      await push.stop();
      feature.stop();
      deps.news.stop();
    },
  };
}
