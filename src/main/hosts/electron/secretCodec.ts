import { safeStorage } from 'electron';
import { AppFailure } from '../../../shared/result';
import type { SecretCodec } from '../../config/secrets';

/**
 * safeStorage encryption for secrets at rest. SECURITY: no silent plaintext fallback: when the OS offers no
 * real encryption (Linux without a keyring falls back to 'basic_text'), storing a secret fails with a clear
 * message instead of writing it in the clear.
 */
export const safeStorageCodec: SecretCodec = {
  kind: 'os-encrypted',
  encode(plain) {
    const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os';
    if (!safeStorage.isEncryptionAvailable() || backend === 'basic_text') {
      throw new AppFailure({
        code: 'secure_storage_unavailable',
        message:
          'Your system offers no secure storage for passwords (no keyring is running), so Innkeeper did not save the secrets. Start your desktop keyring and save again.',
        retryable: true,
      });
    }
    return safeStorage.encryptString(plain).toString('base64');
  },
  decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
};
