import { join } from 'node:path';
import { METHODS, type Method } from '../shared/contract';
import { createCoreBus, type CoreBus } from './bus';
import { openDatabase, type Database } from './db/database';
import { schemaOf } from './db/migrations';
import type { AnyFeature, CoreContext, CoreOptions, FeatureParts, HostContext, Provided } from './feature';
import { FEATURES } from './features';
import { contractCaller, createDispatcher, type Dispatcher, type Handlers } from './gateway/dispatcher';
import { createEventBus, type EventBus } from './gateway/events';
import { cleanedCalls, withInnerTokens } from './gateway/secretLeaks';
import type { DeliveryFilers } from './intake/deliveryKinds';
import type { OutboxKinds } from './outbox/types';

export interface CoreDeps extends HostContext {
  /** What the host hands the features (each reads its own: `demo`, `intakeEnv`, `notifier`, `loginItems`, …). */
  options?: CoreOptions;
  now?: () => number;
  /** The features, in order (default: all of them, `features.ts`). */
  features?: readonly AnyFeature[];
}

/** Everything the hosts need: the dispatcher for calls, the events for the renderer, and a way to start and stop. */
export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  bus: CoreBus;
  db: Database;
  /** What a feature provides (the demo provider, the intake's status…). */
  use<F extends AnyFeature>(feature: F): Provided<F>;
  /** Starts every feature in list order (what listens, what sends, what runs in the background). */
  start(): Promise<void>;
  /** Stops every feature in reverse order, then closes the data file. */
  close(): Promise<void>;
}

/**
 * The composition root: builds every feature of the list, in order, from one context; gathers their handlers,
 * outbox kinds and delivery kinds; starts and stops them in order. It knows no feature by name. Imports no
 * `electron`; nothing here starts on import. Hosts create the settings and secrets (electron-store + safeStorage,
 * or conf + a 0600 file).
 */
export function createCore(deps: CoreDeps): Core {
  const features = deps.features ?? FEATURES;
  const database = openDatabase(join(deps.dataDir, 'innkeeper.db'), schemaOf(features), undefined, {
    checkApart: true,
  });
  const built = new Map<AnyFeature, FeatureParts>();
  // SECURITY: what never reaches the window or a host's notification: the saved secrets (with the bare access tokens
  // inside their entries) and those the features hold elsewhere (a password from the environment).
  const secretValues = () => [
    ...withInnerTokens(deps.secrets.values()),
    ...[...built.values()].flatMap((parts) => parts.secrets?.() ?? []),
  ];
  const events = createEventBus(secretValues);
  const bus = createCoreBus();
  const handlers: Partial<Record<Method, unknown>> = {};
  const outboxKinds: OutboxKinds = {};
  const deliveryFilers: DeliveryFilers = {};
  let dispatcher: Dispatcher | null = null;

  const use = <F extends AnyFeature>(feature: F): Provided<F> => {
    const parts = built.get(feature);
    if (!parts)
      throw new Error(`The ${feature.name} feature is used before it is built: list it earlier in features.ts.`);
    return parts.provides as Provided<F>;
  };
  const context: CoreContext = {
    host: deps.host,
    version: deps.version,
    dataDir: deps.dataDir,
    settings: deps.settings,
    secrets: deps.secrets,
    options: deps.options ?? {},
    database,
    now: deps.now ?? Date.now,
    events,
    bus,
    outboxKinds,
    deliveryFilers,
    use,
    withoutSecrets: (target) => cleanedCalls(target, secretValues),
    call: (method, args) => {
      if (!dispatcher) throw new Error(`${method} was called while the features were still being built.`);
      return contractCaller(dispatcher)(method, args);
    },
  };
  /** Adds a feature's entries to a record shared by all; two features may not claim the same one. */
  const gather = (into: Record<string, unknown>, entries: object | undefined, what: string, by: string) => {
    for (const [key, value] of Object.entries(entries ?? {})) {
      if (Object.hasOwn(into, key)) throw new Error(`Two features declare the ${what} ${key} (the second: ${by}).`);
      into[key] = value;
    }
  };

  try {
    for (const feature of features) {
      const parts = feature.create(context);
      built.set(feature, parts);
      gather(handlers, parts.handlers, 'method', feature.name);
      gather(outboxKinds, parts.outboxKinds, 'outbox kind', feature.name);
      gather(deliveryFilers, parts.deliveryKinds, 'delivery kind', feature.name);
    }
    const missing = METHODS.filter((method) => !Object.hasOwn(handlers, method));
    if (deps.features === undefined && missing.length > 0)
      throw new Error(`No feature answers ${missing.join(', ')}: each method belongs to the feature of its prefix.`);
  } catch (error) {
    database.close();
    throw error;
  }
  // A call that failed in the store (SQLite could not read or write) has the data file checked again.
  dispatcher = createDispatcher(handlers as Handlers, secretValues, (error) => void database.health.storeError(error));
  const parts = features.map((feature) => built.get(feature)!);

  return {
    dispatcher,
    events,
    bus,
    db: database,
    use,
    async start() {
      for (const part of parts) await part.start?.();
      bus.emit('coreStarted', {});
    },
    async close() {
      for (const part of [...parts].reverse()) await part.stop?.();
      database.close();
    },
  };
}

/** Builds the core and starts it (what both hosts do). */
export async function startCore(deps: CoreDeps): Promise<Core> {
  const core = createCore(deps);
  try {
    await core.start();
  } catch (error) {
    // A start that fails leaves nothing running or behind: what started is stopped and the data file closed.
    await core.close().catch(() => {});
    throw error;
  }
  return core;
}
