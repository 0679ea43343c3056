import type { HostKind } from '../shared/contract';
import type { CoreBus } from './bus';
import type { Secrets } from './config/secrets';
import type { Settings } from './config/settings';
import type { Database } from './db/database';
import type { Migration } from './db/migrations';
import type { ContractCaller, Handlers } from './gateway/dispatcher';
import type { EventBus } from './gateway/events';
import type { DeliveryFilers } from './intake/deliveryKinds';
import type { OutboxKind, OutboxKinds } from './outbox/types';

/**
 * What the host hands the core: who it is, where the data lives, the settings and secrets it opened, and the
 * host-only services some features use (each feature reads the ones it needs; see `CoreOptions`).
 */
export interface HostContext {
  host: HostKind;
  version: string;
  dataDir: string;
  settings: Settings;
  secrets: Secrets;
}

/** Host options features read (each documents its own); unknown ones are ignored. */
export type CoreOptions = Record<string, unknown>;

/**
 * What every feature is built from. Plain services (the database, the clock, the two event buses, the contract
 * as the core itself calls it) and `use`, which answers what an earlier feature in the list provides.
 */
export interface CoreContext extends HostContext {
  database: Database;
  now: () => number;
  /** Events for the renderer (the hosts forward them); a feature emits its own (`rates.changed`). */
  events: EventBus;
  /** Events between features, never forwarded (bus.ts): how a feature reacts to another's. */
  bus: CoreBus;
  /**
   * The contract, called from inside the core through the same validation as the renderer's calls. Ready once
   * every feature is built: call it from a handler, `start`, or a listener — never while building.
   */
  call: ContractCaller;
  /** What an earlier feature of the list provides (its `provides`); a later one throws: reorder the list. */
  use<F extends AnyFeature>(feature: F): Provided<F>;
  /** The host's options (`demo`, `intakeEnv`, `notifier`, `loginItems`, `tunnelProvider`, `imageProcess`: see each feature). */
  options: CoreOptions;
  /**
   * Every feature's outbox kinds and delivery filers, gathered by the core as each feature is built. Only the
   * outbox and the intake read them (when an item goes out, when a delivery arrives).
   */
  outboxKinds: OutboxKinds;
  deliveryFilers: DeliveryFilers;
  /**
   * SECURITY: `target` (a host's notifier) with every call's arguments cleaned of the secrets, as the window's answers
   * and events are: what a native notification shows leaves the app too.
   */
  withoutSecrets<T extends object>(target: T): T;
}

/** What a feature is made of once built. Every part is optional. */
export interface FeatureParts {
  /** Its slice of the contract (`HandlerSlice<'rates'>`): the methods named `<feature>.…`. */
  handlers?: Partial<Handlers>;
  /** The outbox kinds it owns: how an item is sent, and what the feature does when one of its items changes. */
  outboxKinds?: Record<string, OutboxKind>;
  /** The kinds of delivery from Su it files (a guest message, a review): intake hands each to its filer. */
  deliveryKinds?: DeliveryFilers;
  /** What later features may `use`. */
  provides?: unknown;
  /**
   * Secrets the feature holds outside the secret file (a password from the environment): guarded like the saved
   * ones, never sent to the window, a notification or a log.
   */
  secrets?(): readonly string[];
  /** Called in list order once every feature is built (background work, listeners, recovery). */
  start?(): void | Promise<void>;
  /** Called in reverse list order when the core closes; the database closes after the last one. */
  stop?(): void | Promise<void>;
}

/** One feature: its name, its schema steps, and how it is built. `features.ts` lists them in order. */
export interface Feature<Parts extends FeatureParts = FeatureParts> {
  /** The feature's word: its folder on each side, its contract prefix. */
  name: string;
  /**
   * Its schema steps. Versions are global and consecutive across features; several features may add to one
   * version (the first schema was written as one step), and then their SQL runs in the order of the list.
   */
  migrations?: readonly Migration[];
  create(context: CoreContext): Parts;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any feature, whatever its parts
export type AnyFeature = Feature<any>;

/** What a feature provides to later ones. */
export type Provided<F extends AnyFeature> = ReturnType<F['create']>['provides'];

/** Declares a feature, keeping the exact type of what it builds (its `provides` and its handlers). */
export function defineFeature<Parts extends FeatureParts>(feature: Feature<Parts>): Feature<Parts> {
  return feature;
}

/**
 * The host's `notifier` option (a native notification, the tray's count) as a feature should call it: cleaned of
 * the secrets (`withoutSecrets`); undefined when the host has none (browser mode, tests).
 */
export function guardedNotifier<N extends object>(context: CoreContext): N | undefined {
  const notifier = context.options.notifier;
  return typeof notifier === 'object' && notifier !== null ? context.withoutSecrets(notifier as N) : undefined;
}
