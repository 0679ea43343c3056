import { defineFeature } from '../feature';
import { createConnectionService } from './connectionService';
import { connectionHandlers } from './handlers';
import { CONNECTION_MIGRATIONS } from './migrations';
import { createProfileStore, type DemoUrls } from './profiles';

/**
 * The connection: the owner's profiles per environment (settings and secrets), the provider in use and its
 * client, Test connection. Provides `connection` (the provider in use, its client) and `profiles` (each
 * environment's addresses and credentials); the built-in demo provider says where it runs with `demoRunsAt`.
 * Reads the host option `forceDemo` (INNKEEPER_DEMO=1: the demo whatever was saved).
 */
export const connectionFeature = defineFeature({
  name: 'connection',
  migrations: CONNECTION_MIGRATIONS,
  create(context) {
    let demoUrls: () => DemoUrls | null = () => null;
    const profiles = createProfileStore({
      settings: context.settings,
      secrets: context.secrets,
      demoUrls: () => demoUrls(),
    });
    const connection = createConnectionService({
      profiles,
      secrets: context.secrets,
      db: context.database,
      events: context.events,
      bus: context.bus,
      now: context.now,
      forceDemo: context.options.forceDemo === true,
    });
    return {
      handlers: connectionHandlers({
        connection,
        onSaved: (state) => context.bus.emit('connectionSaved', state),
      }),
      provides: {
        connection,
        profiles,
        /** Where the built-in demo provider runs (null while it does not): the demo environment's addresses. */
        demoRunsAt(urls: () => DemoUrls | null): void {
          demoUrls = urls;
        },
      },
    };
  },
});
