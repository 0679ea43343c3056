import { z } from 'zod';
import { ENVIRONMENTS, type Environment } from './environments';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';
import { providerSecretSchema } from './secretRules';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A provider base URL. SECURITY: credentials only travel over https; plain http is allowed for
 * loopback addresses only (the emulator on this computer).
 */
export const baseUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the base URL.')
  .max(300, 'At most 300 characters.')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Enter a full URL such as https://connect.su-api.com/SUAPI.' });
      return;
    }
    if (url.username || url.password) {
      ctx.addIssue({
        code: 'custom',
        message: 'Leave user names and passwords out of the URL; enter keys in their own fields.',
      });
      return;
    }
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return;
    ctx.addIssue({ code: 'custom', message: 'Use an https:// address (http is only allowed for this computer).' });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** The partner's domain, whose base64 is the client-id. */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Enter the domain you registered with Su, such as myguesthouse.com.')
  .max(253, 'At most 253 characters.')
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/,
    'Enter a domain name such as myguesthouse.com (no http://, no slashes).',
  );

const optionalText = (label: string) =>
  z
    .string()
    .trim()
    .max(200, `${label}: at most 200 characters.`)
    .regex(/^[^\s]*$/, `${label} cannot contain spaces.`)
    .optional()
    .default('');

/**
 * A secret Su issued, typed by the owner: set when given, kept when omitted. Never echoed back. Long enough to be
 * a secret (see `secretRules.ts`); each message names its field.
 */
const secretInput = (label: string) => providerSecretSchema(label).optional();

/** The names of the secrets a connection profile holds. */
export const SECRET_NAMES = ['clientSecret', 'facilityApiKey', 'paymentApiKey', 'notificationPassword'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** Secrets in a form submission: only those the owner typed are present. */
export const secretsInputSchema = z
  .object({
    clientSecret: secretInput('The client secret'),
    facilityApiKey: secretInput('The facility API key'),
    paymentApiKey: secretInput('The payment API key'),
    notificationPassword: secretInput('The notification password'),
  })
  .strict()
  .default({});

/** One environment's connection settings as the Connection form submits them. */
export const connectionProfileInputSchema = z
  .object({
    environment: z.enum(ENVIRONMENTS, { message: 'Choose demo, sandbox or production.' }),
    mainBaseUrl: baseUrlSchema.optional(),
    tokenBaseUrl: baseUrlSchema.optional(),
    domain: domainSchema,
    facilityAppId: optionalText('App id'),
    paymentApiName: optionalText('API name'),
    notificationUser: optionalText('User name'),
    secrets: secretsInputSchema,
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.environment === 'demo') return;
    if (!value.mainBaseUrl) ctx.addIssue({ code: 'custom', path: ['mainBaseUrl'], message: 'Enter the base URL.' });
    if (!value.tokenBaseUrl) ctx.addIssue({ code: 'custom', path: ['tokenBaseUrl'], message: 'Enter the base URL.' });
  });
export type ConnectionProfileInput = z.input<typeof connectionProfileInputSchema>;
export type ConnectionProfile = z.output<typeof connectionProfileInputSchema>;

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

/**
 * The parts of a Su account the setup guide checks one by one besides the access token (which "Test connection"
 * checks): each with a harmless call that only Su's answer to its credentials tells anything from.
 */
export const CREDENTIAL_PARTS = ['facility', 'payment', 'notifications'] as const;
export type CredentialPart = (typeof CREDENTIAL_PARTS)[number];

/** A part to check, with the settings on screen (possibly unsaved: typed secrets win, as for Test connection). */
export const checkPartSchema = z
  .object({
    part: z.enum(CREDENTIAL_PARTS, { message: 'Choose the part to check: facilities, payments or notifications.' }),
    profile: connectionProfileInputSchema,
  })
  .strict();
export type CheckPartInput = z.input<typeof checkPartSchema>;

/** How one part's check went, in the owner's words. */
export interface PartCheckResult {
  part: CredentialPart;
  /** True when Su accepted the part's credentials. */
  ok: boolean;
  /** What passed, or what is wrong and what to do. */
  text: string;
  /** The Connection form's field to fix, when one is to blame. */
  field: string | null;
  checkedAt: number;
}

/** The connection's slice of the contract: method → argument schema. */
export const connectionMethods = {
  'connection.get': noArgs,
  'connection.save': connectionProfileInputSchema,
  'connection.test': connectionProfileInputSchema,
  'connection.discardToken': z.object({ environment: z.enum(ENVIRONMENTS) }).strict(),
  'connection.checkPart': checkPartSchema,
} as const;

export interface ConnectionResults {
  'connection.get': ConnectionState;
  'connection.save': ConnectionState;
  'connection.test': ConnectionTestResult;
  'connection.discardToken': ConnectionState;
  'connection.checkPart': PartCheckResult;
}

export interface ConnectionEvents {
  'connection.changed': ConnectionState;
}

/** The connection slice of the contract (listed in contract.ts). */
export const connectionContract = defineSlice<ConnectionResults, ConnectionEvents>()(connectionMethods, [
  'connection.changed',
]);
