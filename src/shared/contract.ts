import type { z } from 'zod';
import { appContract } from './app';
import { connectionContract } from './connection';
import { dataFileContract } from './dataFile';
import { deliveryCheckContract } from './deliveryCheck';
import { demoContract } from './demo';
import { desktopContract } from './desktop';
import { inboxContract } from './inbox';
import { intakeContract } from './intake';
import { mailboxContract } from './mailbox';
import { noticesContract } from './notices';
import { outboxContract } from './outbox';
import { paymentsContract } from './payments';
import { photosContract } from './photos';
import { propertyContract } from './property';
import { ratesContract } from './rates';
import type { AppError, Result } from './result';
import { savedRepliesContract } from './savedReplies';

// The contract between the renderer and the core. Each feature declares its slice beside its own types
// (`ratesContract` in rates.ts: its methods' schemas, results and events); this module puts the slices together.
// A new feature is one line in SLICES.

export type { AppInfo, HostKind } from './app';

const SLICES = [
  appContract,
  connectionContract,
  dataFileContract,
  intakeContract,
  inboxContract,
  outboxContract,
  savedRepliesContract,
  ratesContract,
  propertyContract,
  photosContract,
  noticesContract,
  paymentsContract,
  demoContract,
  desktopContract,
  mailboxContract,
  deliveryCheckContract,
] as const;

type Slice = (typeof SLICES)[number];
type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/**
 * Method name → argument schema. Every host (Electron IPC, browser-mode HTTP) validates arguments with these
 * schemas before a service sees them.
 */
export const contractArgs = Object.assign({}, ...SLICES.map((slice) => slice.methods)) as UnionToIntersection<
  Slice['methods']
>;

/** The result type of each contract method. */
export type ContractResults = UnionToIntersection<NonNullable<Slice['types']>['results']>;

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
export type ContractEvents = UnionToIntersection<NonNullable<Slice['types']>['events']>;
export type EventName = keyof ContractEvents;
export const EVENT_NAMES: EventName[] = SLICES.flatMap((slice) => slice.events) as EventName[];

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
export { SESSION_PATH, SESSION_PROOF_KEY_LABEL, SESSION_PROOF_PATH, sessionProofMessage } from './sessionProof';
export { CALL_ARGS_HEADER, CALL_BYTES_TYPE } from './callBytes';

export type { AppError, Result };
