import { z } from 'zod';
import { idArgSchema, noArgs } from './validation';
import { defineSlice } from './contractSlice';
import { ownPasswordSchema } from './secretRules';

/** The partner credentials the provider uses for deliveries: the owner chooses them and gives them to Su. */
export const intakeSettingsInputSchema = z
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
    /** Typed or generated in the form; omitted to keep the saved one. Not easy to guess (see `secretRules.ts`). */
    password: ownPasswordSchema('The password for Su').optional(),
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
export type IntakeSettingsInput = z.input<typeof intakeSettingsInputSchema>;

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
export interface IntakeStatus {
  port: number;
  username: string;
  passwordSet: boolean;
  /** Which values come from INNKEEPER_PUSH_* variables (then the form cannot change them). */
  fromEnvironment: { port: boolean; username: boolean; password: boolean };
  listening: boolean;
  /** The local address a tunnel or reverse proxy forwards to. */
  localUrl: string | null;
  /**
   * Set while the demo listens on another port than the one set, because another program holds that one: says so
   * (the demo delivers wherever the listener is; a real account keeps the port set).
   */
  portNote: string | null;
  /** The owner's public address for Su, when they have their own ('' when not set). */
  publicUrl: string;
  /** Why it is not listening, when it is not. */
  error: string | null;
  /**
   * When the listener was down (deliveries in those spans may be missing: the provider reposts only 3 times), and, as
   * component 'guard', when it refused failed logins during a flood (deliveries with the right credentials still came
   * in).
   */
  downtime: { component: string; from: number; to: number | null; reason?: string | null }[];
  /** Deliveries kept aside because they fit no known kind. */
  quarantined: number;
  /** True when the built-in demo provider sends its messages and reviews here. */
  demoConnected: boolean;
  tunnel: TunnelStatus;
  /** The address to register with Su: the tunnel's while it is up, else the owner's public address (or null). */
  registerUrl: string | null;
}

/** A delivery that authenticated but fit no known kind: kept, acknowledged, and shown to the owner. */
export interface QuarantinedDelivery {
  id: number;
  receivedAt: number;
  reason: string;
  /** What it looked like (a guest message, a review, a legacy Airbnb review), or null when it looked like none. */
  kind: 'message' | 'review' | 'legacy-review' | null;
  /** The body exactly as received (possibly long). */
  body: string;
}

/** The listener's slice of the contract. */
export const intakeMethods = {
  'intake.status': noArgs,
  'intake.save': intakeSettingsInputSchema,
  'intake.quarantine': noArgs,
  'intake.dismissQuarantined': idArgSchema,
} as const;

export interface IntakeResults {
  'intake.status': IntakeStatus;
  'intake.save': IntakeStatus;
  'intake.quarantine': QuarantinedDelivery[];
  'intake.dismissQuarantined': IntakeStatus;
}

export interface IntakeEvents {
  'intake.changed': IntakeStatus;
}

/** The intake slice of the contract (listed in contract.ts). */
export const intakeContract = defineSlice<IntakeResults, IntakeEvents>()(intakeMethods, ['intake.changed']);
