import { z } from 'zod';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

// The mailbox: a small always-on receiver of the owner's own (a VPS, a Raspberry Pi, a NAS) that Su delivers to
// instead of this computer. Innkeeper pairs with it once (its address and a one-time code) and then collects from
// it: at once while running, everything that waited when it comes back. What the mailbox keeps is sealed to this
// computer's key: the mailbox cannot read guests' words.

/** Loopback names: the only hosts a mailbox may be reached at over plain http (the demo, tests). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why `text` cannot be a mailbox's address, in the owner's words; null when it can. An https:// address (http:// only
 * on this computer: 127.0.0.1, localhost), without a user name, password, query or fragment.
 */
export function mailboxUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the mailbox’s full address, such as https://mailbox.example.com.';
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    return 'Use the mailbox’s https:// address: over plain http:// anyone on the way could read and change what it sends (http:// is only for a mailbox on this computer).';
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'Enter the mailbox’s https:// address, such as https://mailbox.example.com.';
  if (url.username || url.password) return 'Enter the address without a user name or password in it.';
  if (url.search || url.hash) return 'Enter the address without anything after a “?” or “#”.';
  return null;
}

/** The address as Innkeeper keeps it: no trailing slash (paths are added to it). */
export const normalMailboxUrl = (text: string) => text.trim().replace(/\/+$/, '');

/** The letters and digits of pairing codes (Crockford's base32: no I, L, O or U, which look like others). */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Pairing codes as the mailbox prints them: XXXX-XXXX-XXXX. */
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * A pairing code as the owner may type it (lower case, spaces or no dashes, O for 0, I or L for 1), written as the
 * mailbox printed it; what cannot be one is left for the check to refuse.
 */
export function normalPairingCode(text: string): string {
  const bare = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (bare.length !== 12 || [...bare].some((c) => !CODE_ALPHABET.includes(c))) return text.trim();
  return `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}`;
}

export const mailboxPairSchema = z
  .object({
    url: z
      .string({ message: 'Enter the mailbox’s address.' })
      .trim()
      .min(1, 'Enter the mailbox’s address.')
      .max(500, 'At most 500 characters.')
      .superRefine((value, ctx) => {
        const problem = mailboxUrlProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform(normalMailboxUrl),
    code: z
      .string({ message: 'Enter the pairing code the mailbox printed.' })
      .transform(normalPairingCode)
      .refine(
        (value) => CODE.test(value),
        'Enter the pairing code the mailbox printed: 12 letters and digits, such as 7K3M-Q9PX-A2RT.',
      ),
  })
  .strict();
export type MailboxPairInput = z.input<typeof mailboxPairSchema>;

/** Another device to unpair from the mailbox (a computer lost, sold or given away). */
export const mailboxUnpairDeviceSchema = z
  .object({
    deviceId: z
      .string({ message: 'Choose the device to unpair.' })
      .trim()
      .min(1, 'Choose the device to unpair.')
      .max(100, 'A device id has at most 100 characters.'),
  })
  .strict();

/** A device paired with the mailbox (as its health said). */
export interface MailboxDevice {
  id: string;
  name: string;
  pairedAt: number;
  /** When it last called the mailbox (collected, or read its health); null if never since pairing. */
  lastSeenAt: number | null;
  /** This computer. */
  self: boolean;
}

/** When the mailbox was running (from its own record): `to` null while it still is. */
export interface MailboxUpPeriod {
  from: number;
  to: number | null;
}

/** What was collected after a time away: the deliveries that had waited in the mailbox. */
export interface MailboxWhileOff {
  messages: number;
  reviews: number;
  /** Deliveries that did not fit any kind: kept in the intake's quarantine. */
  quarantined: number;
  /** When the first and the last of them reached the mailbox. */
  from: number;
  to: number;
  /** When Innkeeper had collected them all. */
  collectedAt: number;
  /** "7 messages and 1 review arrived while this computer was off". */
  text: string;
}

/** The mailbox as the Connection screen shows it. */
export interface MailboxStatus {
  paired: boolean;
  /** The mailbox's address (also kept after a failed pairing, to fill the form again). */
  url: string | null;
  /** Where Su delivers: the mailbox's address + /push, and the user name Su uses (the password is the owner's). */
  pushUrl: string | null;
  pushUser: string | null;
  /** This computer's name at the mailbox. */
  deviceId: string | null;
  pairedAt: number | null;
  /** Connected and collecting live (after catching up with what waited). */
  connected: boolean;
  /** Since when the mailbox could not be reached (null while connected or not paired). */
  unreachableSince: number | null;
  /** When the mailbox last received a delivery from Su (its health), and when Innkeeper last filed one from it. */
  lastDeliveryAt: number | null;
  lastCollectedAt: number | null;
  /** Deliveries waiting in the mailbox for this computer (as of `checkedAt`). */
  waiting: number | null;
  /** When the mailbox was running (its last periods, oldest first). */
  up: MailboxUpPeriod[];
  /** When the mailbox's health was last read. */
  checkedAt: number | null;
  /** What arrived while this computer was off, after the last catch-up that collected anything. */
  whileOff: MailboxWhileOff | null;
  /** The last problem, in the owner's words (null once collecting works again). */
  lastError: { message: string; at: number } | null;
  /** Paired with the built-in demo's own mailbox (inside Innkeeper, on 127.0.0.1): nothing to register with Su. */
  demo: boolean;
  /** Collecting is paused (the demo's "Close the laptop for an hour"): what arrives meanwhile waits in the mailbox. */
  paused: boolean;
  /** Every device paired with the mailbox, this computer among them (as of `checkedAt`; empty before). */
  devices: MailboxDevice[];
}

/** The mailbox slice of the contract: method → argument schema. */
export const mailboxMethods = {
  'mailbox.status': noArgs,
  'mailbox.pair': mailboxPairSchema,
  'mailbox.unpair': noArgs,
  'mailbox.unpairDevice': mailboxUnpairDeviceSchema,
} as const;

export interface MailboxResults {
  'mailbox.status': MailboxStatus;
  'mailbox.pair': MailboxStatus;
  'mailbox.unpair': MailboxStatus;
  'mailbox.unpairDevice': MailboxStatus;
}

export interface MailboxEvents {
  /** Paired, unpaired, connected, lost, a catch-up done ("… arrived while this computer was off"), health read. */
  'mailbox.changed': MailboxStatus;
}

/** The mailbox slice of the contract (listed in contract.ts). */
export const mailboxContract = defineSlice<MailboxResults, MailboxEvents>()(mailboxMethods, ['mailbox.changed']);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "7 messages and 1 review arrived while this computer was off" (and what went to the quarantine). */
export function whileOffText(counts: { messages: number; reviews: number; quarantined: number }): string {
  const parts = [
    ...(counts.messages ? [plural(counts.messages, 'message')] : []),
    ...(counts.reviews ? [plural(counts.reviews, 'review')] : []),
    ...(counts.quarantined ? [`${plural(counts.quarantined, 'delivery', 'deliveries')} Innkeeper could not read`] : []),
  ];
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'Nothing');
  return `${list} arrived while this computer was off${counts.quarantined ? ' (kept in the quarantine)' : ''}`;
}
