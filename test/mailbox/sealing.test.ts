import { describe, expect, it } from 'vitest';
import {
  generateDeviceKeyPair,
  open,
  openDelivery,
  seal,
  sealDelivery,
  type SealedBox,
} from '../../src/receiving/sealing';

const words = Buffer.from('Hi! We arrive at 23:40, is the key still under the blue pot? — Ana', 'utf8');

/** The box with one byte of one of its parts changed. */
function flipped(box: SealedBox, part: 'ct' | 'tag' | 'iv' | 'epk'): SealedBox {
  const bytes = Buffer.from(box[part], 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  return { ...box, [part]: bytes.toString('base64url') };
}

describe('sealing (X25519 + HKDF-SHA256 + AES-256-GCM)', () => {
  it('a box opens with the device’s private key to the exact bytes, and holds none of them in clear', () => {
    const device = generateDeviceKeyPair();
    const box = seal(words, device.publicKey, 'delivery:7');
    expect(open(box, device.privateKey, 'delivery:7').equals(words)).toBe(true);
    expect(Buffer.from(box.epk, 'base64url')).toHaveLength(32);
    expect(Buffer.from(box.iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(box.tag, 'base64url')).toHaveLength(16);
    const text = JSON.stringify(box);
    expect(text).not.toContain('blue pot');
    expect(text).not.toContain(words.toString('base64'));
    // A one-time key and nonce per box: the same words sealed twice look nothing alike.
    const again = seal(words, device.publicKey, 'delivery:7');
    expect(again.epk).not.toBe(box.epk);
    expect(again.ct).not.toBe(box.ct);
  });

  it('a delivery round trip keeps the raw bytes (not UTF-8 clean ones too) and when it arrived', () => {
    const device = generateDeviceKeyPair();
    const raw = Buffer.concat([words, Buffer.from([0xff, 0x00, 0xfe])]);
    const box = sealDelivery({ raw, receivedAt: 1_700_000_000_123 }, 42, device.publicKey);
    const content = openDelivery(box, 42, device.privateKey);
    expect(content.raw.equals(raw)).toBe(true);
    expect(content.receivedAt).toBe(1_700_000_000_123);
  });

  it('any changed byte is refused: the sealed words, the tag, the nonce, the one-time key', () => {
    const device = generateDeviceKeyPair();
    const box = seal(words, device.publicKey, 'delivery:1');
    for (const part of ['ct', 'tag', 'iv', 'epk'] as const) {
      expect(() => open(flipped(box, part), device.privateKey, 'delivery:1'), part).toThrow();
    }
    expect(() => open({ ...box, ct: box.ct.slice(0, -2) }, device.privateKey, 'delivery:1')).toThrow();
    expect(() => open({ ...box, v: 2 } as unknown as SealedBox, device.privateKey, 'delivery:1')).toThrow(/version 1/);
  });

  it('another device’s key cannot open it', () => {
    const device = generateDeviceKeyPair();
    const other = generateDeviceKeyPair();
    const box = seal(words, device.publicKey, 'delivery:1');
    expect(() => open(box, other.privateKey, 'delivery:1')).toThrow();
  });

  it('the sequence number is bound in: a box moved to another delivery does not open', () => {
    const device = generateDeviceKeyPair();
    const box = sealDelivery({ raw: words, receivedAt: 1 }, 5, device.publicKey);
    expect(openDelivery(box, 5, device.privateKey).raw.equals(words)).toBe(true);
    expect(() => openDelivery(box, 6, device.privateKey)).toThrow();
    expect(() => open(box, device.privateKey, 'delivery:50')).toThrow();
  });

  it('a public key that is not 32 bytes of base64url is refused, naming it', () => {
    expect(() => seal(words, 'abc', 'x')).toThrow(/publicKey must be 32 bytes/);
    expect(() => seal(words, 'not base64url!', 'x')).toThrow(/publicKey is not base64url/);
  });
});
