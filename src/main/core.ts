import type { AppInfo, HostKind } from '../shared/contract';
import { openDatabase, type Database } from './db/database';
import { startEmulator, type RunningEmulator } from './emulator/emulator';
import { createEventBus, type EventBus } from './events';
import { createDispatcher, type Dispatcher, type Handlers } from './gateway/dispatcher';
import type { SecretStore } from './secrets/secretStore';
import { createConnectionService, type ConnectionService } from './services/connection/connectionService';
import { createProfileStore, type DemoUrls } from './services/connection/profiles';
import type { SettingsStore } from './settings/settingsStore';
import { join } from 'node:path';

export interface CoreDeps {
  host: HostKind;
  version: string;
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Where the built-in demo provider listens (null when it is not running). */
  demoUrls: DemoUrls | null;
  forceDemo: boolean;
  now?: () => number;
}

/** Everything the hosts need: the dispatcher for calls, the bus for events, and a way to stop. */
export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  db: Database;
  connection: ConnectionService;
  close(): Promise<void>;
}

/**
 * The composition root: builds every service from its dependencies. Imports no `electron`; nothing here starts
 * on import. Hosts create the settings and secret stores (electron-store + safeStorage, or conf + a 0600 file).
 */
export function createCore(deps: CoreDeps): Core {
  const now = deps.now ?? Date.now;
  const db = openDatabase(join(deps.dataDir, 'innkeeper.db'));
  const events = createEventBus();
  const profiles = createProfileStore({ settings: deps.settings, secrets: deps.secrets, demoUrls: deps.demoUrls });
  const connection = createConnectionService({
    profiles,
    secrets: deps.secrets,
    db,
    events,
    now,
    forceDemo: deps.forceDemo,
  });

  const info: AppInfo = {
    version: deps.version,
    host: deps.host,
    dataDir: deps.dataDir,
    secretStorage: deps.secrets.kind,
  };
  const handlers: Handlers = {
    'app.info': () => info,
    'connection.get': () => connection.state(),
    'connection.save': (args) => connection.save(args),
    'connection.test': (args) => connection.test(args),
    'connection.discardToken': (args) => connection.discardToken(args.environment),
  };
  return {
    dispatcher: createDispatcher(handlers, () => deps.secrets.values()),
    events,
    db,
    connection,
    close: async () => db.close(),
  };
}

/** Starts the built-in demo provider in this process and builds the core on top of it. */
export async function startCoreWithDemo(
  deps: Omit<CoreDeps, 'demoUrls'>,
): Promise<Core & { emulator: RunningEmulator }> {
  const emulator = await startEmulator();
  const core = createCore({ ...deps, demoUrls: { mainBaseUrl: emulator.mainUrl, tokenBaseUrl: emulator.tokenUrl } });
  return {
    ...core,
    emulator,
    close: async () => {
      await core.close();
      await emulator.close();
    },
  };
}
