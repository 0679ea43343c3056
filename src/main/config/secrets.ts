import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where secrets live. The renderer never sees this object or its values, only `has()` answers. */
export interface Secrets {
  /** 'os-encrypted' (Electron safeStorage) or 'file' (a 0600 file, weaker, plain Node only). */
  readonly kind: 'os-encrypted' | 'file';
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  delete(name: string): void;
  /** Every stored secret value, so the gateway can make sure none ever leaves the core. */
  values(): string[];
  /** Names whose stored value could not be decrypted: the owner must enter them again. */
  unreadable(): string[];
}

/** Turns a secret into what is written to disk and back. Electron supplies safeStorage; plain Node stores text. */
export interface SecretCodec {
  kind: Secrets['kind'];
  encode(plain: string): string;
  /** Throws when the stored value cannot be decrypted (another user, another machine, a changed keyring). */
  decode(stored: string): string;
}

/**
 * Reads the secret file. A file that is not a JSON object of strings (cut off by a crash, edited by hand) is
 * moved aside, never overwritten, and the app starts without secrets: the owner re-enters them.
 */
function readStored(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
    }
  } catch {
    // fall through: unreadable
  }
  renameSync(file, `${file}.unreadable-${Date.now()}`);
  return {};
}

/** A codec that keeps text as it is: only for plain Node, and the UI says the storage is weaker. */
export const plainFileCodec: SecretCodec = {
  kind: 'file',
  encode: (plain) => plain,
  decode: (stored) => stored,
};

/**
 * Secrets in one JSON file in the data folder, written atomically with 0600 permissions. Values pass through
 * `codec`, so under Electron the file only holds safeStorage ciphertext. A write is whole or nothing: the new file
 * is written beside the old one and takes its place; a write that fails (a full disk, something in the file's
 * place) removes what it wrote, keeps the values as they were, and throws.
 */
export function createFileSecrets(dataDir: string, codec: SecretCodec = plainFileCodec): Secrets {
  const file = join(dataDir, codec.kind === 'file' ? 'secrets.json' : 'secrets.enc.json');
  const tmp = `${file}.tmp`;
  // SECURITY: what a crash left half-written (secrets in it) goes.
  rmSync(tmp, { force: true });
  const stored = readStored(file);
  const plain = new Map<string, string>();
  const broken = new Set<string>();
  for (const [name, value] of Object.entries(stored)) {
    try {
      plain.set(name, codec.decode(value));
    } catch {
      // SECURITY: a value we cannot decrypt is never guessed at or shown; the owner re-enters it.
      broken.add(name);
    }
  }

  /** Writes `next` in the file's place; on failure removes the temporary file and throws. */
  const persist = (next: Record<string, string>) => {
    try {
      // SECURITY: a new file of our own ('wx'), never through a link or a file someone left there.
      rmSync(tmp, { force: true });
      writeFileSync(tmp, JSON.stringify(next, null, 2), { mode: 0o600, flag: 'wx' });
      chmodSync(tmp, 0o600);
      renameSync(tmp, file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  };

  return {
    kind: codec.kind,
    get: (name) => plain.get(name) ?? null,
    has: (name) => plain.has(name),
    set(name, value) {
      const encoded = codec.encode(value);
      persist({ ...stored, [name]: encoded });
      stored[name] = encoded;
      plain.set(name, value);
      broken.delete(name);
    },
    delete(name) {
      if (!(name in stored)) return;
      const { [name]: _gone, ...rest } = stored;
      persist(rest);
      delete stored[name];
      plain.delete(name);
      broken.delete(name);
    },
    values: () => [...plain.values()],
    unreadable: () => [...broken],
  };
}
