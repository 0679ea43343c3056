import type { CredentialPart } from '@shared/connection';
import { DEFAULT_BASE_URLS } from '@shared/environments';

/**
 * The setup guide's words: what Su is, how an account is had, and for each part of it what its credentials are,
 * where they come from and what needs them. Only what Su's documentation says (docs/guide/connection.md and the
 * README say the same): where it says nothing, the guide says so.
 */

/** One part of a Su account as the guide explains it. */
export interface GuidePartText {
  title: string;
  icon: string;
  /** The fields of the Connection screen it is made of, as the screen labels them. */
  fields: string;
  /** Where the values come from. */
  from: string;
  /** What in Innkeeper needs them, and what works without. */
  neededFor: string;
}

/** The access token's part: checked by Test connection. */
export const TOKEN_PART: GuidePartText = {
  title: 'Access token',
  icon: 'pi pi-key',
  fields: 'Domain, Client secret',
  from: 'The domain is the one you registered with Su for your partner account. The client secret is created in Su’s partner console; sandbox and production have different secrets.',
  neededFor:
    'Every call to Su: replies to guests and reviews, rates and availability, property details and photos. Nothing works with Su without it.',
};

export const CREDENTIAL_PART_TEXTS: Record<CredentialPart, GuidePartText> = {
  facility: {
    title: 'Property facilities',
    icon: 'pi pi-building',
    fields: 'App id, API key',
    from: 'Su’s documentation does not say where these are issued: ask Su for them with your account.',
    neededFor:
      'Only the Facilities tab of the Property screen (Booking.com facilities). Everything else works without.',
  },
  payment: {
    title: 'Payments',
    icon: 'pi pi-credit-card',
    fields: 'API name, API key',
    from: 'Su’s partner console, for Su’s payment host. The key is unique to you.',
    neededFor:
      'Only the Payments screen: payment links, partner accounts and payment status. Without them guest messages, reviews and rates still work.',
  },
  notifications: {
    title: 'Channel notifications',
    icon: 'pi pi-bell',
    fields: 'User name, Password',
    from: 'Ask Su for them with your account. They are not the user name and password Su sends with its deliveries (those you choose, below).',
    neededFor:
      'Only the Notices tab of the Property screen: Airbnb’s notices about your accounts. Everything else works without.',
  },
};

/** The fields whose change makes a part's last check stale. */
export const PART_FIELDS: Record<CredentialPart, readonly string[]> = {
  facility: ['mainBaseUrl', 'facilityAppId', 'facilityApiKey'],
  payment: ['tokenBaseUrl', 'paymentApiName', 'paymentApiKey'],
  notifications: ['mainBaseUrl', 'notificationUser', 'notificationPassword'],
};

/** The provider's own addresses that its documentation names (it names no page for signing up). */
export const SU_ADDRESSES: { label: string; url: string }[] = [
  { label: 'Su’s API, sandbox', url: DEFAULT_BASE_URLS.sandbox.main },
  { label: 'Su’s API, production', url: DEFAULT_BASE_URLS.production.main },
  { label: 'Su’s payment host', url: DEFAULT_BASE_URLS.production.token },
];
