import type { ConnectionProfileInput } from '../../src/shared/connection';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';

/**
 * A sandbox connection profile with every credential the emulator accepts (the demo's), pointing at an emulator on
 * this computer (plain http is allowed for loopback addresses): as an owner would type their Su account's.
 */
export function sandboxProfileOn(emulator: { mainUrl: string; tokenUrl: string }): ConnectionProfileInput & {
  secrets: Record<string, string>;
} {
  return {
    environment: 'sandbox',
    mainBaseUrl: emulator.mainUrl,
    tokenBaseUrl: emulator.tokenUrl,
    domain: DEMO_CREDENTIALS.domain,
    facilityAppId: DEMO_CREDENTIALS.facilityAppId,
    paymentApiName: DEMO_CREDENTIALS.paymentApiName,
    notificationUser: DEMO_CREDENTIALS.notificationUser,
    secrets: {
      clientSecret: DEMO_CREDENTIALS.clientSecret,
      facilityApiKey: DEMO_CREDENTIALS.facilityApiKey,
      paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
      notificationPassword: DEMO_CREDENTIALS.notificationPassword,
    },
  };
}
