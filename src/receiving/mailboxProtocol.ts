import { z } from 'zod';

/**
 * The mailbox's HTTP API, as both sides read it (docs/mailbox.md, "The protocol"): the mailbox (src/mailbox) checks
 * every request with these schemas, the desktop (src/main/mailbox) every answer. All JSON; the device calls carry
 * `Authorization: Bearer <token>`.
 */

/** The API's version, in `GET /mailbox/health`. */
export const MAILBOX_PROTOCOL_VERSION = 1;

/** The alphabet of pairing codes: Crockford's base32, without I, L, O and U (no look-alikes). */
export const PAIRING_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A pairing code as printed: three groups of four. */
export const PAIRING_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * A code as the owner may type it (lower case, spaces or no dashes, O for 0, I or L for 1), written as printed; null
 * when it cannot be one.
 */
export function normalizePairingCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (plain.length !== 12 || [...plain].some((c) => !PAIRING_ALPHABET.includes(c))) return null;
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}

const base64url = (what: string, bytes?: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, `${what} must be base64url`)
    .refine(
      (s) => bytes === undefined || Buffer.from(s, 'base64url').length === bytes,
      `${what} must be ${bytes} bytes`,
    );

export const sealedBoxSchema = z
  .object({
    v: z.literal(1),
    epk: base64url('epk', 32),
    iv: base64url('iv', 12),
    ct: z.string().regex(/^[A-Za-z0-9_-]*$/, 'ct must be base64url'),
    tag: base64url('tag', 16),
  })
  .strict();

/** `POST /mailbox/pair`. */
export const pairRequestSchema = z
  .object({
    code: z.string().min(1, 'the pairing code is required').max(40, 'the pairing code is too long'),
    name: z.string().trim().min(1, 'a name for this computer is required').max(80, 'at most 80 characters'),
    publicKey: base64url('publicKey', 32),
    pushUser: z
      .string()
      .min(1, 'the user name Su will use is required')
      .max(200, 'at most 200 characters')
      .refine((s) => !s.includes(':'), 'a user name for Basic authentication cannot contain ":"'),
    pushPassword: z
      .string()
      .min(12, 'the password Su will use must be at least 12 characters')
      .max(200, 'at most 200 characters'),
  })
  .strict();
export type PairRequest = z.infer<typeof pairRequestSchema>;

export const pairAnswerSchema = z.object({ deviceId: z.string(), token: z.string(), mailboxId: z.string() });
export type PairAnswer = z.infer<typeof pairAnswerSchema>;

/** The errors a pairing answers (with `message` in the owner's words). */
export type PairingError =
  | { error: 'pairing_code_wrong'; triesLeft: number; message: string } // 401
  | { error: 'pairing_locked'; message: string } // 403
  | { error: 'pairing_code_expired'; message: string }; // 410 (also: used already, or none waiting)

/** `GET /mailbox/deliveries?after=SEQ&limit=N`. */
export const MAX_DELIVERIES_PAGE = 500;
export const deliveriesQuerySchema = z
  .object({
    after: z.coerce.number().int('after must be a whole number').min(0, 'after must be 0 or more').default(0),
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(MAX_DELIVERIES_PAGE, `limit must be at most ${MAX_DELIVERIES_PAGE}`)
      .default(100),
  })
  .strict();

export const sealedDeliverySchema = z.object({
  seq: z.number().int().positive(),
  receivedAt: z.number(),
  size: z.number().int().min(0),
  box: sealedBoxSchema,
});
export type SealedDelivery = z.infer<typeof sealedDeliverySchema>;

export const deliveriesAnswerSchema = z.object({
  deliveries: z.array(sealedDeliverySchema),
  last: z.number().int().nullable(),
  more: z.boolean(),
});
export type DeliveriesAnswer = z.infer<typeof deliveriesAnswerSchema>;

/** `GET /mailbox/stream?after=SEQ`: server-sent events `delivery` (a SealedDelivery) and `ping`. */
export const streamQuerySchema = z
  .object({
    after: z.coerce.number().int('after must be a whole number').min(0, 'after must be 0 or more').default(0),
  })
  .strict();
/** How often the stream says it is alive. */
export const STREAM_PING_MS = 20_000;

/** `POST /mailbox/confirm`. */
export const confirmRequestSchema = z
  .object({ upTo: z.number().int('upTo must be a whole number').min(0, 'upTo must be 0 or more') })
  .strict();
export const confirmAnswerSchema = z.object({ confirmed: z.number().int() });

/** `PUT /mailbox/settings`. */
export const settingsRequestSchema = z
  .object({
    retentionDays: z
      .number()
      .int('retentionDays must be a whole number of days')
      .min(1, 'retentionDays must be at least 1')
      .max(365, 'retentionDays must be at most 365'),
  })
  .strict();
export const settingsAnswerSchema = z.object({ retentionDays: z.number().int() });

/** `GET /mailbox/health`. */
export const healthAnswerSchema = z.object({
  mailboxId: z.string(),
  version: z.number().int(),
  startedAt: z.number(),
  /** When the mailbox was up, newest last (the last 20 periods; the running one has `to: null`). */
  up: z.array(z.object({ from: z.number(), to: z.number().nullable() })),
  lastDeliveryAt: z.number().nullable(),
  /** Deliveries waiting for the asking device. */
  waiting: z.number().int(),
  retentionDays: z.number().int(),
  devices: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      pairedAt: z.number(),
      lastSeenAt: z.number().nullable(),
      self: z.boolean(),
    }),
  ),
});
export type MailboxHealth = z.infer<typeof healthAnswerSchema>;

/** A refusal's body: what went wrong, with the field when one was wrong. */
export interface MailboxErrorAnswer {
  error: string;
  message: string;
  field?: string;
}

/**
 * Photos (`PUT /mailbox/media/:name`): the largest upload copy a mailbox keeps for Su to fetch (the desktop reads Su's
 * copy back with the same cap), and how long its address answers at most.
 */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
export const MEDIA_TTL_MS = 24 * 60 * 60 * 1000;
/** A device's own name for a photo it hands over (it deletes it by that name). */
export const MEDIA_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;
export const mediaAnswerSchema = z.object({ url: z.string().url(), expiresAt: z.number().int() });
export type MediaAnswer = z.infer<typeof mediaAnswerSchema>;
