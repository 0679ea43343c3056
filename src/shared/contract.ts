import type { z } from 'zod';
import { connectionMethods, type ConnectionEvents, type ConnectionResults } from './connection';
import { demoMethods, type DemoEvents, type DemoResults } from './demo';
import { desktopMethods, type DesktopEvents, type DesktopResults } from './desktop';
import { inboxMethods, type InboxEvents, type InboxResults } from './inbox';
import { noticesMethods, type NoticesEvents, type NoticesResults } from './notices';
import { outboxMethods, type OutboxEvents, type OutboxResults } from './outbox';
import { paymentsMethods, type PaymentsEvents, type PaymentsResults } from './payments';
import { photosMethods, type PhotosEvents, type PhotosResults } from './photos';
import { propertyMethods, type PropertyEvents, type PropertyResults } from './property';
import { pushMethods, type PushEvents, type PushResults } from './push';
import { ratesMethods, type RatesEvents, type RatesResults } from './rates';
import type { AppError, Result } from './result';
import { savedRepliesMethods, type SavedRepliesResults } from './savedReplies';
import { noArgs } from './validation';

// The contract between the renderer and the core. Each feature declares its slice beside its own types
// (`inboxMethods`, `InboxResults`, `InboxEvents` in inbox.ts, …); this module puts the slices together.

/** How the app is running: a real Electron window, or browser mode on loopback. */
export type HostKind = 'electron' | 'browser';

/** Facts about the running app, for the shell and the Settings footer. */
export interface AppInfo {
  version: string;
  host: HostKind;
  dataDir: string;
  /** 'os-encrypted' under Electron safeStorage; 'file' (0600 file, weaker) under plain Node. */
  secretStorage: 'os-encrypted' | 'file';
}

/**
 * Method name → argument schema. Every host (Electron IPC, browser-mode HTTP) validates arguments with these
 * schemas before a service sees them.
 */
export const contractArgs = {
  'app.info': noArgs,
  ...connectionMethods,
  ...pushMethods,
  ...inboxMethods,
  ...outboxMethods,
  ...savedRepliesMethods,
  ...ratesMethods,
  ...propertyMethods,
  ...photosMethods,
  ...noticesMethods,
  ...paymentsMethods,
  ...demoMethods,
  ...desktopMethods,
} as const;

/** The result type of each contract method. */
export interface ContractResults
  extends
    ConnectionResults,
    PushResults,
    InboxResults,
    OutboxResults,
    SavedRepliesResults,
    RatesResults,
    PropertyResults,
    PhotosResults,
    NoticesResults,
    PaymentsResults,
    DemoResults,
    DesktopResults {
  'app.info': AppInfo;
}

/** Contract method names. */
export type Method = keyof typeof contractArgs;
/** The list of methods, in a fixed order (the preload builds one function per entry). */
export const METHODS = Object.keys(contractArgs) as Method[];
/** The argument a method takes, as the caller writes it. */
export type MethodArgs<M extends Method> = z.input<(typeof contractArgs)[M]>;
/** The argument a method receives after validation. */
export type ParsedArgs<M extends Method> = z.output<(typeof contractArgs)[M]>;

// Every method has a result type and every result type a method.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyMethodHasAResult: Same<Method, keyof ContractResults> = true;
void everyMethodHasAResult;

/** Events the core sends to the renderer: name → payload. */
export interface ContractEvents
  extends
    ConnectionEvents,
    PushEvents,
    InboxEvents,
    OutboxEvents,
    RatesEvents,
    PropertyEvents,
    PhotosEvents,
    NoticesEvents,
    PaymentsEvents,
    DemoEvents,
    DesktopEvents {}
export type EventName = keyof ContractEvents;
export const EVENT_NAMES: EventName[] = [
  'connection.changed',
  'push.changed',
  'inbox.changed',
  'inbox.newMessage',
  'outbox.changed',
  'rates.changed',
  'property.changed',
  'photos.changed',
  'notices.changed',
  'payments.changed',
  'demo.changed',
  'desktop.changed',
];

/** The API the renderer sees as `window.innkeeper` (Electron) or over HTTP (browser mode). */
export type InnkeeperApi = {
  [M in Method]: (args: MethodArgs<M>) => Promise<Result<ContractResults[M]>>;
} & {
  /** Subscribes to an event; returns a function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void): () => void;
};

/**
 * Maximum size of one serialized call (arguments) in UTF-8 bytes, checked by every host (the dispatcher, and the
 * web host's body limit). Room for the longest draft (`DRAFT_MAX_LENGTH` UTF-16 units, at most 3 UTF-8 bytes
 * each, or 6 bytes where JSON escapes one) with its other fields.
 */
export const MAX_CALL_BYTES = 1024 * 1024;

// Browser mode's session proof (its own module: the renderer's HTTP client imports it without the schemas).
export { SESSION_PROOF_PATH, sessionProofMessage } from './sessionProof';

export type { AppError, Result };
