import { issueToken, validateToken } from './auth';
import { replyToMessage } from './endpoints/messaging';
import { replyToLegacyReview, replyToReview } from './endpoints/reviews';
import { associateImages, createImages, retrieveImages } from './endpoints/images';
import { sendRules } from './endpoints/inventory';
import { fetchNotifications } from './endpoints/notifications';
import { createPartner, createPaymentLink, createWidgetLink, transactionStatus } from './endpoints/payments';
import { setFacilities, updateProperty } from './endpoints/property';
import { createHostClient } from './http';
import { credentialSecrets, type ProviderContext, type ProviderCredentials } from './request';
import type { TokenManager } from './tokenManager';

type Rest<F> = F extends (ctx: ProviderContext, ...rest: infer A) => infer R ? (...rest: A) => R : never;
const bind = <F extends (ctx: ProviderContext, ...rest: never[]) => unknown>(ctx: ProviderContext, fn: F): Rest<F> =>
  ((...rest: never[]) => fn(ctx, ...rest)) as Rest<F>;

export interface ProviderClientOptions {
  mainBaseUrl: string;
  tokenBaseUrl: string;
  tokens: TokenManager;
  credentials: ProviderCredentials;
  /** Each call's whole deadline, connect to the answer's last byte (default `PROVIDER_LIMITS.deadlineMs`). */
  timeoutMs?: number;
}

/**
 * The typed client for every endpoint of the partner API, grouped by feature, on one axios instance per host.
 * Each call validates its input with the shared schemas first and normalizes every answer to a result or an
 * AppError; nothing is retried here except a Bearer call the provider refused for its token. No error leaves it
 * with a secret of the profile or a credential the call sent in what it says (see `gateway/secretLeaks.ts`).
 */
export function createProviderClient(options: ProviderClientOptions) {
  const ctx: ProviderContext = {
    main: createHostClient(options.mainBaseUrl, options.timeoutMs),
    token: createHostClient(options.tokenBaseUrl, options.timeoutMs),
    tokens: options.tokens,
    credentials: options.credentials,
  };
  return {
    auth: {
      /** A token through the token manager (cached, single flight). */
      token: () => ctx.tokens.getToken(),
      /** Endpoint 2 with the current token. */
      validate: async () => validateToken(ctx.main, await ctx.tokens.getToken(), credentialSecrets(ctx.credentials)),
      issueToken: (credentials: { clientId: string; clientSecret: string }) =>
        issueToken(ctx.main, credentials, credentialSecrets(ctx.credentials)),
    },
    property: { setFacilities: bind(ctx, setFacilities), update: bind(ctx, updateProperty) },
    messages: { reply: bind(ctx, replyToMessage) },
    reviews: { reply: bind(ctx, replyToReview), replyLegacy: bind(ctx, replyToLegacyReview) },
    images: { create: bind(ctx, createImages), associate: bind(ctx, associateImages), list: bind(ctx, retrieveImages) },
    notifications: { fetch: bind(ctx, fetchNotifications) },
    rates: { send: bind(ctx, sendRules) },
    payments: {
      createPartner: bind(ctx, createPartner),
      createPaymentLink: bind(ctx, createPaymentLink),
      createWidgetLink: bind(ctx, createWidgetLink),
      transactionStatus: bind(ctx, transactionStatus),
    },
  };
}
export type ProviderClient = ReturnType<typeof createProviderClient>;
