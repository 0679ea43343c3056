import { z } from 'zod';
import { ENVIRONMENTS, type Environment } from './environments';
import type { SecretName } from './schemas/connection';
import { connectionProfileInputSchema } from './schemas/connection';
import type { AppError, Result } from './result';
import {
  draftSchema,
  editReplySchema,
  reviewDraftSchema,
  idArgSchema,
  reviewQuerySchema,
  reviewReplyArgsSchema,
  sendReplySchema,
  threadQuerySchema,
  type InboxCounts,
  type OutboxStatus,
  type ReviewItem,
  type ThreadDetail,
  type ThreadPage,
} from './inbox';
import { pushSettingsInputSchema, type PushStatus, type QuarantinedPush } from './schemas/push';
import { savedReplySchema, type SavedReply } from './composer';
import {
  propertySetupSchema,
  rateArgs,
  type PropertySetup,
  type RateBookView,
  type RateDraft,
  type RatePreview,
  type RatePushRecord,
} from './rates';

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

/** One environment's saved connection settings, as the renderer may see them: no secret values. */
export interface ConnectionProfileView {
  environment: Environment;
  mainBaseUrl: string;
  tokenBaseUrl: string;
  domain: string;
  /** base64 of the domain, sent as the `client-id` header. */
  clientId: string;
  facilityAppId: string;
  paymentApiName: string;
  notificationUser: string;
  /** Whether each secret is stored. SECURITY: never the value. */
  secretsSet: Record<SecretName, boolean>;
  /** False until the owner saved this profile at least once. */
  saved: boolean;
}

/** The token the app holds for the active environment. */
export interface TokenStatus {
  environment: Environment;
  /** Epoch milliseconds when the token stops being valid. */
  expiresAt: number;
}

/** Everything the Connection screen shows. */
export interface ConnectionState {
  active: Environment;
  profiles: Record<Environment, ConnectionProfileView>;
  token: TokenStatus | null;
  /** True until the owner saved any connection: the app runs on the demo provider meanwhile. */
  firstRun: boolean;
  /** The environment the owner saved last (null before the first save); differs from `active` under INNKEEPER_DEMO. */
  savedActive: Environment | null;
  /** Set when the app was started with INNKEEPER_DEMO=1: the active environment is demo for this run. */
  demoForced: boolean;
  /** Stored secrets that could not be decrypted (keychain changed): the owner must enter them again. */
  unreadableSecrets: { environment: Environment; name: SecretName }[];
}

/** What a successful "Test connection" found. */
export interface ConnectionTestResult {
  environment: Environment;
  /** Epoch milliseconds when the issued token expires. */
  tokenExpiresAt: number;
  /** Seconds of validity the provider announced (`expire_in`). */
  expiresInSeconds: number;
  /** True when the token was accepted by the validation endpoint (pmsproperty). */
  validated: true;
  /** Number of properties the validation endpoint listed, when it listed any. */
  propertyCount: number | null;
  checkedAt: number;
}

const empty = z.object({}).strict();

/**
 * The contract between the renderer and the core: method name → argument schema. Every host (Electron IPC,
 * browser-mode HTTP) validates arguments with these schemas before a service sees them.
 */
export const contractArgs = {
  'app.info': empty,
  'connection.get': empty,
  'connection.save': connectionProfileInputSchema,
  'connection.test': connectionProfileInputSchema,
  'connection.discardToken': z.object({ environment: z.enum(ENVIRONMENTS) }).strict(),
  'push.status': empty,
  'push.save': pushSettingsInputSchema,
  'push.quarantine': empty,
  'push.dismissQuarantined': idArgSchema,
  'inbox.threads': threadQuerySchema,
  'inbox.thread': idArgSchema,
  'inbox.markThreadRead': idArgSchema,
  'inbox.reviews': reviewQuerySchema,
  'inbox.markReviewRead': idArgSchema,
  'inbox.counts': empty,
  'inbox.sendReply': sendReplySchema,
  'inbox.saveDraft': draftSchema,
  'inbox.replyToReview': reviewReplyArgsSchema,
  'inbox.saveReviewDraft': reviewDraftSchema,
  'outbox.status': empty,
  'outbox.retry': idArgSchema,
  'outbox.discard': idArgSchema,
  'outbox.editReply': editReplySchema,
  'outbox.markSent': idArgSchema,
  'outbox.resume': empty,
  'replies.list': empty,
  'replies.save': savedReplySchema,
  'replies.delete': idArgSchema,
  'rates.properties': empty,
  'rates.saveSetup': propertySetupSchema,
  'rates.removeSetup': rateArgs.hotel,
  'rates.book': rateArgs.hotel,
  'rates.draft': rateArgs.hotel,
  'rates.saveDraft': rateArgs.saveDraft,
  'rates.preview': rateArgs.hotel,
  'rates.push': rateArgs.push,
  'rates.history': rateArgs.hotel,
  'rates.revert': rateArgs.revert,
} as const;

/** The result type of each contract method. */
export interface ContractResults {
  'app.info': AppInfo;
  'connection.get': ConnectionState;
  'connection.save': ConnectionState;
  'connection.test': ConnectionTestResult;
  'connection.discardToken': ConnectionState;
  'push.status': PushStatus;
  'push.save': PushStatus;
  'push.quarantine': QuarantinedPush[];
  'push.dismissQuarantined': PushStatus;
  'inbox.threads': ThreadPage;
  'inbox.thread': ThreadDetail;
  'inbox.markThreadRead': InboxCounts;
  'inbox.reviews': ReviewItem[];
  'inbox.markReviewRead': InboxCounts;
  'inbox.counts': InboxCounts;
  'inbox.sendReply': ThreadDetail;
  'inbox.saveDraft': { savedAt: number };
  'inbox.replyToReview': ReviewItem;
  'inbox.saveReviewDraft': { savedAt: number };
  'outbox.status': OutboxStatus;
  'outbox.retry': OutboxStatus;
  'outbox.discard': OutboxStatus;
  'outbox.editReply': OutboxStatus;
  'outbox.markSent': OutboxStatus;
  'outbox.resume': OutboxStatus;
  'replies.list': SavedReply[];
  'replies.save': SavedReply[];
  'replies.delete': SavedReply[];
  'rates.properties': PropertySetup[];
  'rates.saveSetup': PropertySetup[];
  'rates.removeSetup': PropertySetup[];
  'rates.book': RateBookView;
  'rates.draft': RateDraft;
  'rates.saveDraft': RateDraft;
  'rates.preview': RatePreview;
  'rates.push': { pushId: number };
  'rates.history': RatePushRecord[];
  'rates.revert': { pushId: number; keptLater: number; past: number };
}

/** Contract method names. */
export type Method = keyof typeof contractArgs;
/** The list of methods, in a fixed order (the preload builds one function per entry). */
export const METHODS = Object.keys(contractArgs) as Method[];
/** The argument a method takes, as the caller writes it. */
export type MethodArgs<M extends Method> = z.input<(typeof contractArgs)[M]>;
/** The argument a method receives after validation. */
export type ParsedArgs<M extends Method> = z.output<(typeof contractArgs)[M]>;

/** Events the core sends to the renderer: name → payload. */
/** A new guest message, for notifications (native, browser, toast). */
export interface NewMessageEvent {
  threadId: number;
  channelName: string;
  guestName: string | null;
  preview: string;
}

export interface ContractEvents {
  'connection.changed': ConnectionState;
  'push.changed': PushStatus;
  /** Something in the inbox changed (a push arrived, something was read). */
  'inbox.changed': { threadId: number | null; reviewId: number | null; counts: InboxCounts };
  'inbox.newMessage': NewMessageEvent;
  /** A reply changed state (queued, sending, sent, failed), or the queue paused or resumed. */
  'outbox.changed': OutboxStatus;
  /** A rates push of this property changed state (queued, sent, failed): the calendar and history refresh. */
  'rates.changed': { hotelId: string };
}
export type EventName = keyof ContractEvents;
export const EVENT_NAMES: EventName[] = [
  'connection.changed',
  'push.changed',
  'inbox.changed',
  'inbox.newMessage',
  'outbox.changed',
  'rates.changed',
];

/** The API the renderer sees as `window.innkeeper` (Electron) or over HTTP (browser mode). */
export type InnkeeperApi = {
  [M in Method]: (args: MethodArgs<M>) => Promise<Result<ContractResults[M]>>;
} & {
  /** Subscribes to an event; returns a function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: ContractEvents[E]) => void): () => void;
};

/** Maximum size of one serialized call (arguments), checked by every host. */
export const MAX_CALL_BYTES = 256 * 1024;

export type { AppError, Result };
