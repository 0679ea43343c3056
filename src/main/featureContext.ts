import type { ConnectionService } from './connection/connectionService';
import type { ProfileStore } from './connection/profiles';
import type { Database } from './db/database';
import type { EventBus } from './gateway/events';
import type { PropertySetup } from '../shared/rateSetups';

/**
 * What every feature is built from: the database, the clock, the event bus, the connection in use (its provider
 * and client) and the properties the owner set up. The composition root (core.ts) makes one and hands it to each
 * feature's `create…Feature`.
 */
export interface FeatureContext {
  database: Database;
  now: () => number;
  events: EventBus;
  connection: ConnectionService;
  profiles: ProfileStore;
  /** The properties set up under Rooms & rate plans: names, rooms, channels. */
  properties: () => PropertySetup[];
}
