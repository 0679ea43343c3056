import { z } from 'zod';
import { idArgSchema, noArgs } from './validation';

/** The partner credentials the provider uses for pushes: the owner chooses them and gives them to Su. */
export const pushSettingsInputSchema = z
  .object({
    port: z
      .number({ message: 'Enter a port number.' })
      .int('A whole number.')
      .min(1024, 'Use a port from 1024 to 65535.')
      .max(65535, 'Use a port from 1024 to 65535.'),
    username: z
      .string()
      .trim()
      .min(3, 'At least 3 characters.')
      .max(100, 'At most 100 characters.')
      .regex(/^[A-Za-z0-9._-]+$/, 'Letters, digits, ".", "_" and "-" only (no ":").'),
    /** Typed or generated in the form; omitted to keep the saved one. */
    password: z.string().min(16, 'At least 16 characters; use Generate for a strong one.').max(200).optional(),
    /**
     * The owner's own public https address that forwards to this listener (reverse proxy or port forward);
     * empty when none. This is the address to register with Su.
     */
    publicUrl: z
      .string()
      .trim()
      .max(500)
      .refine((v) => {
        if (v === '') return true;
        try {
          const url = new URL(v);
          return url.protocol === 'https:' && !url.username && !url.password;
        } catch {
          return false;
        }
      }, 'Enter the full https:// address that forwards to Innkeeper, such as https://inn.example.com/push.')
      .default(''),
    /** An ngrok tunnel: the owner's authtoken (kept when omitted) and optionally a reserved domain. */
    tunnel: z
      .object({
        enabled: z.boolean(),
        authtoken: z
          .string()
          .trim()
          .min(20, 'Paste the whole authtoken from your ngrok dashboard.')
          .max(200)
          .optional(),
        domain: z
          .string()
          .trim()
          .toLowerCase()
          .regex(
            /^$|^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/,
            'A domain such as my-inn.ngrok.app, without https://.',
          )
          .default(''),
      })
      .strict()
      .default({ enabled: false, domain: '' }),
  })
  .strict();
export type PushSettingsInput = z.input<typeof pushSettingsInputSchema>;

/** The optional tunnel that makes the listener reachable from the internet. */
export interface TunnelStatus {
  enabled: boolean;
  state: 'off' | 'starting' | 'up' | 'reconnecting' | 'failed';
  /** The public base URL while up. */
  url: string | null;
  error: string | null;
  authtokenSet: boolean;
  domain: string;
}

/** The listener's state for the Connection screen. */
export interface PushStatus {
  port: number;
  username: string;
  passwordSet: boolean;
  /** Which values come from INNKEEPER_PUSH_* variables (then the form cannot change them). */
  fromEnvironment: { port: boolean; username: boolean; password: boolean };
  listening: boolean;
  /** The local address a tunnel or reverse proxy forwards to. */
  localUrl: string | null;
  /** The owner's public address for Su, when they have their own ('' when not set). */
  publicUrl: string;
  /** Why it is not listening, when it is not. */
  error: string | null;
  /**
   * When the listener was down (pushes in those spans may be missing: the provider reposts only 3 times), and, as
   * component 'guard', when it refused failed logins during a flood (pushes with the right credentials still came in).
   */
  downtime: { component: string; from: number; to: number | null; reason?: string | null }[];
  /** Pushes kept aside because they fit no known kind. */
  quarantined: number;
  /** True when the built-in demo provider delivers its pushes here. */
  demoConnected: boolean;
  tunnel: TunnelStatus;
  /** The address to register with Su: the tunnel's while it is up, else the owner's public address (or null). */
  registerUrl: string | null;
  /** Whether pushes can be stored (a damaged data file, a full disk), the backups, and a restore. */
  store: StoreStatus;
}

/** Why pushes cannot be stored right now (Su is answered "try again later" and reposts them). */
export interface StoreProblem {
  /** 'damaged': the data file failed its integrity check; 'cannot-write': writes fail (disk full, read-only, I/O). */
  kind: 'damaged' | 'cannot-write';
  since: number;
  /** In the owner's words, with SQLite's own text. */
  reason: string;
  /** When the file was last found sound (its newest backup), when known. */
  lastGoodCheck?: number | null;
}

/** A rolling backup of the data file (the newest few are kept in the data folder's backups folder). */
export interface StoreBackup {
  file: string;
  takenAt: number;
  /** While the file is damaged: pushes it received after this backup (filed again on restore), or null if unreadable. */
  pushesAfter?: number | null;
}

export interface StoreStatus {
  problem: StoreProblem | null;
  /** Newest first. */
  backups: StoreBackup[];
  /** The backup the owner chose: it is swapped in when Innkeeper next starts. */
  restorePending: { file: string; takenAt: number; requestedAt: number } | null;
  /** What the last restore did (shown for a week). */
  lastRestore: {
    takenAt: number;
    restoredAt: number;
    /** Pushes received after the backup, read from the damaged file and filed again. */
    refiled: number;
    /** Why the damaged file could not be read (those pushes are lost unless Su reposts them), or null. */
    unreadable: string | null;
    /** Where the damaged file was kept. */
    keptAs: string;
    /** Restored at start without the owner's choice: the data file could not be opened at all. */
    automatic?: boolean;
  } | null;
  /**
   * What stopped the last restore (shown for a week): the chosen backup was gone or damaged (dropped; the current
   * file kept), another process had the data file open (still chosen), the request could not be read, or the
   * messages read back from the damaged file could not be filed yet (tried again at the next start).
   */
  restoreProblem?: {
    at: number;
    kind: 'backup-missing' | 'backup-damaged' | 'folder-in-use' | 'request-unreadable' | 'refile-failed';
    /** The backup chosen (null when the request could not be read). */
    takenAt: number | null;
    /** What was found, in SQLite's or the system's words ("another Innkeeper (process 4321)"). */
    detail: string;
    /** Tried again at the next start. */
    pending: boolean;
  } | null;
  /** Periods in which pushes could not be stored (recorded once writing worked again). */
  downtime: { from: number; to: number | null }[];
}

/** A push that authenticated but fit no known kind: kept, acknowledged, and shown to the owner. */
export interface QuarantinedPush {
  id: number;
  receivedAt: number;
  reason: string;
  /** What it looked like (a guest message, a review, a legacy Airbnb review), or null when it looked like none. */
  kind: 'message' | 'review' | 'legacy-review' | null;
  /** The body exactly as received (possibly long). */
  body: string;
}

/** The push listener's slice of the contract. */
export const pushMethods = {
  'push.status': noArgs,
  'push.save': pushSettingsInputSchema,
  'push.quarantine': noArgs,
  'push.dismissQuarantined': idArgSchema,
  'push.restoreBackup': z
    .object({ file: z.string().regex(/^innkeeper-\d{13}\.db$/, 'Choose one of the backups listed.') })
    .strict(),
  'push.cancelRestore': noArgs,
} as const;

export interface PushResults {
  'push.status': PushStatus;
  'push.save': PushStatus;
  'push.quarantine': QuarantinedPush[];
  'push.dismissQuarantined': PushStatus;
  'push.restoreBackup': PushStatus;
  'push.cancelRestore': PushStatus;
}

export interface PushEvents {
  'push.changed': PushStatus;
}
