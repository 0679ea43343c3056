import type { CredentialPart, PartCheckResult } from '../../shared/connection';
import { redact } from '../gateway/secretLeaks';
import { isObject, parseBody } from '../provider/envelope';
import { createHostClient, send } from '../provider/http';
import type { ResolvedProfile } from './profiles';

/**
 * The setup guide's check of one part of a Su account (facility setup, the payment host, notifications): one call
 * that can neither read nor change anything of the owner's, since it names a property, partner and transaction that
 * do not exist. Su checks the credentials first: a refusal ("not authorised", HTTP 401) means they are wrong, any
 * other answer (the id is unknown) that Su accepted them.
 */

/** An id no property, partner or transaction has: what the checks ask about. */
const NO_SUCH_ID = 'innkeeper-check';

interface Field {
  field:
    | 'facilityAppId'
    | 'facilityApiKey'
    | 'paymentApiName'
    | 'paymentApiKey'
    | 'notificationUser'
    | 'notificationPassword';
  label: string;
}

interface Part {
  /** Where its fields are on the Connection screen. */
  section: string;
  /** What the credentials are called together, in a sentence. */
  pair: string;
  host: 'main' | 'token';
  path: string;
  /** Harmless: about something that does not exist. */
  body: object;
  /** Why it is harmless, for the owner. */
  harmless: string;
  name: Field;
  key: Field;
  headers: (name: string, key: string) => Record<string, string>;
}

const PARTS: Record<CredentialPart, Part> = {
  facility: {
    section: 'Property facilities',
    pair: 'the app id and API key',
    host: 'main',
    path: '/jservice/bdc/facilities/set',
    body: {},
    harmless: 'Innkeeper sent a facility setup naming no property, so nothing changed',
    name: { field: 'facilityAppId', label: 'App id' },
    key: { field: 'facilityApiKey', label: 'API key' },
    headers: (name, key) => ({ 'app-id': name, Authorization: key }),
  },
  payment: {
    section: 'Payments',
    pair: 'the API name and key',
    host: 'token',
    path: '/service/api/transactionstatus',
    body: { partner_id: NO_SUCH_ID, transaction_id: NO_SUCH_ID },
    harmless: 'Innkeeper asked about a payment that does not exist, so nothing was read or changed',
    name: { field: 'paymentApiName', label: 'API name' },
    key: { field: 'paymentApiKey', label: 'API key' },
    headers: (name, key) => ({ 'x-api-name': name, 'x-api-key': key }),
  },
  notifications: {
    section: 'Channel notifications',
    pair: 'the user name and password',
    host: 'main',
    path: '/jservice/notificationAB',
    body: { hotelid: NO_SUCH_ID },
    harmless: 'Innkeeper asked for the notices of a property that does not exist, so nothing was read',
    name: { field: 'notificationUser', label: 'User name' },
    key: { field: 'notificationPassword', label: 'Password' },
    headers: (name, key) => ({ Authorization: `Basic ${Buffer.from(`${name}:${key}`).toString('base64')}` }),
  },
};

const VALUES: Record<CredentialPart, (p: ResolvedProfile) => { name: string; key: string | null }> = {
  facility: (p) => ({ name: p.facilityAppId, key: p.secrets.facilityApiKey }),
  payment: (p) => ({ name: p.paymentApiName, key: p.secrets.paymentApiKey }),
  notifications: (p) => ({ name: p.notificationUser, key: p.secrets.notificationPassword }),
};

/** Which of the payment host's two headers it complained about ("x-api-name : invalid or missing"). */
function paymentNameRefused(body: unknown): boolean {
  const messages = isObject(body) ? body.ErrorMessages : undefined;
  const texts = Array.isArray(messages) ? messages.map(String) : typeof messages === 'string' ? [messages] : [];
  return texts.some((t) => /x-api-name/i.test(t)) && !texts.some((t) => /x-api-key/i.test(t));
}

/** Checks one part with the profile given (the form's, typed secrets included). */
export async function checkPart(
  part: CredentialPart,
  profile: ResolvedProfile,
  now: () => number,
): Promise<PartCheckResult> {
  const p = PARTS[part];
  const { name, key } = VALUES[part](profile);
  const result = (ok: boolean, text: string, field: string | null): PartCheckResult => ({
    part,
    ok,
    // SECURITY: nothing of Su's answer is quoted, but the base URL is: no secret of the profile leaves in it.
    text: redact(text, Object.values(profile.secrets)),
    field,
    checkedAt: now(),
  });
  if (!name) return result(false, `Enter the ${p.name.label} under ${p.section} first.`, p.name.field);
  if (!key) return result(false, `Enter the ${p.key.label} under ${p.section} first.`, p.key.field);

  const baseUrl = p.host === 'main' ? profile.mainBaseUrl : profile.tokenBaseUrl;
  const urlField = p.host === 'main' ? 'mainBaseUrl' : 'tokenBaseUrl';
  const urlLabel = p.host === 'main' ? 'API base URL' : 'Payment host base URL';
  const http = createHostClient(baseUrl, 15_000);
  const sent = await send(
    () =>
      http.post(p.path, p.body, {
        headers: { 'Content-Type': 'application/json', ...p.headers(name, key) },
      }),
    { what: `Checking ${p.pair}`, baseUrl },
  );
  if (!sent.ok) return result(false, `${sent.error.message} Check the ${urlLabel}.`, urlField);
  const { status, body } = sent.raw;
  if (status === 401 || status === 403) {
    if (part === 'payment' && paymentNameRefused(parseBody(body))) {
      return result(
        false,
        `The payment host does not know this API name. Copy the API name under ${p.section} again from what Su gave you.`,
        p.name.field,
      );
    }
    return result(
      false,
      `Su refused ${p.pair} (“not authorised”). Copy both again from what Su gave you: ${p.name.label} and ${p.key.label} under ${p.section}.`,
      p.key.field,
    );
  }
  if (status === 404) {
    return result(false, `There is no Su service at this address (HTTP 404). Check the ${urlLabel}.`, urlField);
  }
  if (status >= 500) {
    return result(false, `Su could not answer just now (HTTP ${status}). Try again in a moment.`, null);
  }
  return result(true, `Su accepted ${p.pair}. (${p.harmless}.)`, null);
}
