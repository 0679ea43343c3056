import { DEMO_CREDENTIALS } from '../shared/environments';

/** What the emulator accepts and how it behaves. Defaults are the documented demo credentials. */
export interface EmulatorOptions {
  domain: string;
  clientSecret: string;
  facilityAppId: string;
  facilityApiKey: string;
  notificationUser: string;
  notificationPassword: string;
  paymentApiName: string;
  paymentApiKey: string;
  /** Which environment it imitates: sandbox issues `sandbox_` tokens, production `live_` ones. */
  environment: 'sandbox' | 'production';
  /** Seconds of token validity; the provider says 3600. */
  tokenTtlSeconds: number;
  /** Tokens allowed per client-id per rolling hour; the provider says 30. */
  tokensPerHour: number;
  /**
   * Pause between push attempts. The provider states no interval (its reservation pushes repeat every 10
   * minutes); the emulator uses a short one so a delivery outcome is known within seconds.
   */
  pushRetryIntervalMs: number;
  /** How long one push attempt waits for the partner's answer before it counts as not acknowledged. */
  pushTimeoutMs: number;
  /** Seconds (emulator clock) after which a pending payment transaction becomes `Success` by itself. */
  paymentCompleteSeconds: number;
  /**
   * Where its payment pages are published, as `{token_base_url}` in the links it makes (`https://pay.example`,
   * before `/token/get-cc…`). Empty: the address the caller reached it at (the demo: http on this computer). Su's own
   * links are https, and the app hands out a plain http link only from its built-in demo, so an emulator standing in
   * for Su sandbox or production publishes its links at an https address.
   */
  paymentPageBase: string;
  /** Where pushes go at start (empty: none until `POST /_emulator/partner`), and its Basic credentials. */
  partnerUrl: string;
  partnerUsername: string;
  partnerPassword: string;
  /**
   * The token the control API (`/_emulator`, not part of Su) requires as `Authorization: Bearer …`. Empty: a
   * random one is made for each run (printed by `npm run emulator`, handed to the app's demo in-process).
   */
  controlToken: string;
  /** Starts with a few photos already held at Su for each active property (the demo provider). */
  seedPhotos: boolean;
  /**
   * A file where the emulator keeps what it holds, restored at its next start (persistence.ts; the app's demo
   * provider keeps it in the data folder). Empty: in memory only, as new at every start.
   */
  stateFile: string;
}

export const DEFAULT_EMULATOR_OPTIONS: EmulatorOptions = {
  ...DEMO_CREDENTIALS,
  environment: 'sandbox',
  tokenTtlSeconds: 3600,
  tokensPerHour: 30,
  pushRetryIntervalMs: 200,
  pushTimeoutMs: 5000,
  paymentCompleteSeconds: 60,
  paymentPageBase: '',
  partnerUrl: '',
  seedPhotos: false,
  stateFile: '',
  partnerUsername: '',
  partnerPassword: '',
  controlToken: '',
};

/** Environment variables that override the defaults (flags override these). */
export const EMULATOR_ENV: Record<keyof EmulatorOptions, string> = {
  domain: 'EMULATOR_DOMAIN',
  clientSecret: 'EMULATOR_CLIENT_SECRET',
  facilityAppId: 'EMULATOR_FACILITY_APP_ID',
  facilityApiKey: 'EMULATOR_FACILITY_API_KEY',
  notificationUser: 'EMULATOR_NOTIFICATION_USER',
  notificationPassword: 'EMULATOR_NOTIFICATION_PASSWORD',
  paymentApiName: 'EMULATOR_PAYMENT_API_NAME',
  paymentApiKey: 'EMULATOR_PAYMENT_API_KEY',
  environment: 'EMULATOR_ENVIRONMENT',
  tokenTtlSeconds: 'EMULATOR_TOKEN_TTL_SECONDS',
  tokensPerHour: 'EMULATOR_TOKENS_PER_HOUR',
  pushRetryIntervalMs: 'EMULATOR_PUSH_RETRY_INTERVAL_MS',
  pushTimeoutMs: 'EMULATOR_PUSH_TIMEOUT_MS',
  paymentCompleteSeconds: 'EMULATOR_PAYMENT_COMPLETE_SECONDS',
  paymentPageBase: 'EMULATOR_PAYMENT_PAGE_BASE',
  partnerUrl: 'EMULATOR_PARTNER_URL',
  partnerUsername: 'EMULATOR_PARTNER_USERNAME',
  partnerPassword: 'EMULATOR_PARTNER_PASSWORD',
  controlToken: 'EMULATOR_CONTROL_TOKEN',
  seedPhotos: 'EMULATOR_SEED_PHOTOS',
  stateFile: 'EMULATOR_STATE_FILE',
};
