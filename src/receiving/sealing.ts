import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

/**
 * What the mailbox keeps of a delivery for one device: readable only with that device's private key, which never
 * leaves the owner's computer. `epk` is the mailbox's one-time public key for this box (X25519), `iv` the AES-GCM
 * nonce, `ct` the sealed bytes and `tag` their seal; all base64url.
 */
export interface SealedBox {
  v: 1;
  epk: string;
  iv: string;
  ct: string;
  tag: string;
}

/** A device's key pair, as the desktop keeps it: the public key goes to the mailbox, the private key nowhere. */
export interface DeviceKeyPair {
  /** base64url of the raw 32 bytes. */
  publicKey: string;
  /** PKCS#8 DER, base64url. */
  privateKey: string;
}

const INFO = 'innkeeper-mailbox-v1';
const RAW_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const fromB64url = (text: string, what: string): Buffer => {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text)) throw new Error(`${what} is not base64url`);
  return Buffer.from(text, 'base64url');
};

/** The raw 32 bytes of an X25519 public key (its JWK `x` is exactly those, in base64url). */
function rawPublic(key: KeyObject): Buffer {
  const x = key.export({ format: 'jwk' }).x;
  if (!x) throw new Error('not an X25519 public key');
  return Buffer.from(x, 'base64url');
}

/** A public key from its base64url raw form; anything that is not 32 bytes of X25519 is refused, naming it. */
export function publicKeyFrom(text: string): KeyObject {
  const raw = fromB64url(text, 'publicKey');
  if (raw.length !== RAW_KEY_BYTES) throw new Error(`publicKey must be ${RAW_KEY_BYTES} bytes, got ${raw.length}`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(raw) }, format: 'jwk' });
}

const privateKeyFrom = (text: string): KeyObject =>
  createPrivateKey({ key: fromB64url(text, 'privateKey'), format: 'der', type: 'pkcs8' });

/** A new device key pair (the desktop makes one when it pairs). */
export function generateDeviceKeyPair(): DeviceKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: b64url(rawPublic(publicKey)),
    privateKey: b64url(privateKey.export({ format: 'der', type: 'pkcs8' })),
  };
}

/** The AES-256 key both sides derive: HKDF-SHA256 of the shared secret, salted with both public keys. */
function boxKey(secret: Buffer, ephemeralRaw: Buffer, deviceRaw: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.concat([ephemeralRaw, deviceRaw]), INFO, 32));
}

/**
 * Seals `plain` for one device: a one-time X25519 key pair, its shared secret with the device's public key, HKDF to
 * an AES-256-GCM key, a random nonce; `aad` is bound to the box (the mailbox gives `delivery:<seq>`, so that a box
 * cannot be moved to another sequence number) without being in it.
 */
export function seal(plain: Buffer, devicePublicKey: string, aad: string): SealedBox {
  const device = publicKeyFrom(devicePublicKey);
  const ephemeral = generateKeyPairSync('x25519');
  const secret = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: device });
  const ephemeralRaw = rawPublic(ephemeral.publicKey);
  const key = boxKey(secret, ephemeralRaw, rawPublic(device));
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { v: 1, epk: b64url(ephemeralRaw), iv: b64url(iv), ct: b64url(ct), tag: b64url(cipher.getAuthTag()) };
}

/**
 * Opens a box with the device's private key; throws on anything wrong: another key, another `aad`, a changed byte
 * anywhere (the authentication tag fails), or a box that is not one.
 */
export function open(box: SealedBox, devicePrivateKey: string, aad: string): Buffer {
  if (!box || box.v !== 1) throw new Error('not a sealed box (version 1)');
  const privateKey = privateKeyFrom(devicePrivateKey);
  const ephemeralRaw = fromB64url(box.epk, 'epk');
  if (ephemeralRaw.length !== RAW_KEY_BYTES) throw new Error('epk must be 32 bytes');
  const iv = fromB64url(box.iv, 'iv');
  const tag = fromB64url(box.tag, 'tag');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('the box is damaged (iv or tag)');
  const ephemeral = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(ephemeralRaw) }, format: 'jwk' });
  const secret = diffieHellman({ privateKey, publicKey: ephemeral });
  const key = boxKey(secret, ephemeralRaw, rawPublic(createPublicKey(privateKey)));
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(fromB64url(box.ct, 'ct')), decipher.final()]);
}

/** What is sealed for a delivery: the exact body bytes as received (after content decoding) and when. */
export interface DeliveryContent {
  raw: Buffer;
  receivedAt: number;
}

/** The AAD of a delivery's box: its sequence number. */
export const deliveryAad = (seq: number) => `delivery:${seq}`;

/** Seals a delivery's content for one device, bound to its sequence number. */
export function sealDelivery(content: DeliveryContent, seq: number, devicePublicKey: string): SealedBox {
  const plain = Buffer.from(
    JSON.stringify({ raw: content.raw.toString('base64'), receivedAt: content.receivedAt }),
    'utf8',
  );
  try {
    return seal(plain, devicePublicKey, deliveryAad(seq));
  } finally {
    plain.fill(0);
  }
}

/** Opens a delivery's box (the desktop, when it collects): its exact bytes and when the mailbox received them. */
export function openDelivery(box: SealedBox, seq: number, devicePrivateKey: string): DeliveryContent {
  const plain = open(box, devicePrivateKey, deliveryAad(seq));
  const parsed = JSON.parse(plain.toString('utf8')) as { raw?: unknown; receivedAt?: unknown };
  if (typeof parsed.raw !== 'string' || typeof parsed.receivedAt !== 'number') {
    throw new Error('the sealed delivery is not { raw, receivedAt }');
  }
  return { raw: Buffer.from(parsed.raw, 'base64'), receivedAt: parsed.receivedAt };
}
