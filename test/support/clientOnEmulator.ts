import { clientIdFromDomain } from '../../src/shared/clientId';
import { DEMO_CREDENTIALS } from '../../src/shared/environments';
import { AppFailure, type AppError } from '../../src/shared/result';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { startEmulator } from '../../src/emulator/emulator';
import { issueToken } from '../../src/main/provider/auth';
import { createProviderClient } from '../../src/main/provider/client';
import { createHostClient } from '../../src/main/provider/http';
import type { ProviderCredentials } from '../../src/main/provider/request';
import { createTokenManager } from '../../src/main/provider/tokenManager';

/** The real provider client on a fresh emulator over loopback, with the demo credentials (overridable). */
export async function startClientOnEmulator(credentials: Partial<ProviderCredentials> = {}) {
  const emulator = await startEmulator();
  const tokens = createTokenManager({
    environment: 'sandbox',
    issue: () =>
      issueToken(createHostClient(emulator.mainUrl), {
        clientId: clientIdFromDomain(DEMO_CREDENTIALS.domain),
        clientSecret: DEMO_CREDENTIALS.clientSecret,
      }),
  });
  const client = createProviderClient({
    mainBaseUrl: emulator.mainUrl,
    tokenBaseUrl: emulator.tokenUrl,
    tokens,
    credentials: {
      facilityAppId: DEMO_CREDENTIALS.facilityAppId,
      facilityApiKey: DEMO_CREDENTIALS.facilityApiKey,
      notificationUser: DEMO_CREDENTIALS.notificationUser,
      notificationPassword: DEMO_CREDENTIALS.notificationPassword,
      paymentApiName: DEMO_CREDENTIALS.paymentApiName,
      paymentApiKey: DEMO_CREDENTIALS.paymentApiKey,
      ...credentials,
    },
  });
  const control = createEmulatorControl(emulator);
  return {
    emulator,
    client,
    control,
    /** Requests the emulator received on one Su path. */
    requestsTo: async (path: string) => (await control.requests()).filter((r) => r.path.endsWith(path)),
    close: () => emulator.close(),
  };
}

/** The AppError a call failed with (fails the test when the call succeeded or threw something else). */
export async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppFailure) return error.error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
