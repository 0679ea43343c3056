import { z } from 'zod';
import { MESSAGING_CHANNELS } from './channels';
import { hotelIdSchema, idSchema } from './su/common';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

// The built-in demo provider: a Su emulator inside Innkeeper, so that every screen can be tried with no account.
// It runs only while the demo is the active provider; its controls deliver guest messages and reviews through the
// push listener, the same path a real push takes.

/** A demo property, for the controls' property picker. */
export interface DemoProperty {
  hotelId: string;
  name: string;
}

/** The demo provider as the inbox's empty state and the Connection screen show it. */
export interface DemoStatus {
  /** True while the demo is the active provider and its emulator runs. */
  running: boolean;
  /** The demo provider's Su base URL while it runs. */
  mainUrl: string | null;
  /** Whether a new guest message arrives now and then (minutes apart) while the demo runs. */
  liveMessages: boolean;
  /** The demo's properties, for choosing where a delivery goes. */
  properties: DemoProperty[];
  /** Why the demo provider is not running although it is the active provider (it could not start), or null. */
  error: string | null;
  /**
   * The demo's own mailbox (inside Innkeeper, on 127.0.0.1) while this computer collects from it: its address. Null
   * when it does not run (the owner paired a mailbox of their own: the demo then delivers to the listener).
   */
  mailboxUrl: string | null;
  /** "Close the laptop for an hour": since when collecting is paused while the demo's guests write; null: open. */
  laptopClosedAt: number | null;
  /** What the demo's guests wrote while the laptop was closed, in the owner's words (null while it is open). */
  laptopNote: string | null;
}

/** What the demo controls can deliver: a guest message on any channel, a review of each kind. */
export const demoDeliverySchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('message'),
        channel: z.enum(MESSAGING_CHANNELS, { message: 'Choose Airbnb, Booking.com or Expedia.' }),
        hotelId: hotelIdSchema(20),
      })
      .strict(),
    z
      .object({
        kind: z.literal('review'),
        channel: z.enum(['19', '9'], { message: 'Reviews of this kind come from Booking.com or Expedia.' }),
        hotelId: hotelIdSchema(20),
      })
      .strict(),
    z.object({ kind: z.literal('legacy-review'), hotelId: hotelIdSchema(20) }).strict(),
    /** A new Airbnb notice on the property's Airbnb account; the app checks for notices at once. */
    z.object({ kind: z.literal('notice'), hotelId: hotelIdSchema(20) }).strict(),
    /** The guest pays a payment link (its transaction completes on the demo host); the app checks it at once. */
    z.object({ kind: z.literal('payment'), transactionId: idSchema('The transaction id', 100) }).strict(),
  ],
  { message: 'Choose what to deliver: a message, a review, an Airbnb review, an Airbnb notice or a payment.' },
);
export type DemoDelivery = z.input<typeof demoDeliverySchema>;

/** How a delivery went: Su's push was acknowledged by the listener (it is in the inbox), or why not. */
export interface DemoDeliveryResult {
  acknowledged: boolean;
  /** In the owner's words: what arrived, or why it did not. */
  summary: string;
}

/** The demo's slice of the contract. */
export const demoMethods = {
  'demo.status': noArgs,
  'demo.deliver': demoDeliverySchema,
  'demo.setLiveMessages': z.object({ enabled: z.boolean() }).strict(),
  /**
   * "Close the laptop for an hour" (`open: false`): collecting from the demo's mailbox stops and its guests write
   * meanwhile; `open: true` opens it again, and what waited comes in.
   */
  'demo.laptop': z.object({ open: z.boolean({ message: 'Say whether the laptop opens or closes.' }) }).strict(),
} as const;

export interface DemoResults {
  'demo.status': DemoStatus;
  'demo.deliver': DemoDeliveryResult;
  'demo.setLiveMessages': DemoStatus;
  'demo.laptop': DemoStatus;
}

export interface DemoEvents {
  /** The demo started or stopped, or its settings changed. */
  'demo.changed': DemoStatus;
}

/** The demo slice of the contract (listed in contract.ts). */
export const demoContract = defineSlice<DemoResults, DemoEvents>()(demoMethods, ['demo.changed']);
