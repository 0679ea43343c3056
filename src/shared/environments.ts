/** Where the app talks to: the built-in emulator, the provider's sandbox, or production. */
export const ENVIRONMENTS = ['demo', 'sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Display names in the owner's words. */
export const ENVIRONMENT_LABELS: Record<Environment, string> = {
  demo: 'Built-in demo provider',
  sandbox: 'Su sandbox',
  production: 'Su production',
};

/** The provider's published base URLs; the owner may edit them. Demo URLs are only known at run time. */
export const DEFAULT_BASE_URLS: Record<Exclude<Environment, 'demo'>, { main: string; token: string }> = {
  sandbox: { main: 'https://connect-sandbox.su-api.com/SUAPI', token: 'https://token.suissu.com' },
  production: { main: 'https://connect.su-api.com/SUAPI', token: 'https://token.suissu.com' },
};

/**
 * The token prefix each environment must issue. The demo emulator behaves like the sandbox.
 * SECURITY: a token with the other prefix is never sent (`live_` tokens work only on production, `sandbox_` ones
 * only on the sandbox).
 */
export const TOKEN_PREFIX: Record<Environment, 'sandbox_' | 'live_'> = {
  demo: 'sandbox_',
  sandbox: 'sandbox_',
  production: 'live_',
};

/** The credentials the built-in demo provider accepts (public, documented in docs/emulator.md). */
export const DEMO_CREDENTIALS = {
  domain: 'demo.innkeeper.test',
  clientSecret: 'demo-client-secret',
  facilityAppId: 'demo-app',
  facilityApiKey: 'demo-api-key',
  notificationUser: 'demo',
  notificationPassword: 'demo-password',
  paymentApiName: 'DEMOAPP',
  paymentApiKey: 'demo-payment-key',
} as const;
