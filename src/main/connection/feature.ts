import type { SecretStore } from '../config/secretStore';
import type { SettingsStore } from '../config/settingsStore';
import type { Database } from '../db/database';
import type { EventBus } from '../gateway/events';
import { createConnectionService } from './connectionService';
import { createProfileStore, type DemoUrls } from './profiles';

/** The connection: the owner's profiles per environment (settings and secrets) and the provider in use. */
export function createConnectionFeature(deps: {
  settings: SettingsStore;
  secrets: SecretStore;
  database: Database;
  events: EventBus;
  now: () => number;
  forceDemo: boolean;
  demoUrls: () => DemoUrls | null;
}) {
  const profiles = createProfileStore({ settings: deps.settings, secrets: deps.secrets, demoUrls: deps.demoUrls });
  const connection = createConnectionService({
    profiles,
    secrets: deps.secrets,
    db: deps.database,
    events: deps.events,
    now: deps.now,
    forceDemo: deps.forceDemo,
  });
  return { profiles, connection };
}
