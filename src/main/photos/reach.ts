import { loadSharp } from './sharp';
import type { PhotoReach } from '../../shared/photos';
import type { IntakeStatus } from '../../shared/intake';
import { isLoopbackHttp } from '../../shared/su/common';

/** Whether the provider in use runs on this computer (the built-in demo, or a developer's emulator on loopback). */
export const providerOnThisComputer = (mainBaseUrl: string): boolean => isLoopbackHttp(mainBaseUrl);

/**
 * Where Su fetches photos from: the listener's public address (the tunnel while it is up, or the owner's own
 * https address), or, for a provider on this computer (the built-in demo), the listener on loopback.
 */
export function photoReach(
  push: Pick<IntakeStatus, 'listening' | 'localUrl' | 'registerUrl'>,
  localProvider: boolean,
): PhotoReach {
  const base = (url: string) => url.replace(/\/push\/?$/, '').replace(/\/+$/, '');
  if (!push.listening || !push.localUrl)
    return {
      baseUrl: null,
      reason: 'the listener that serves photos to Su is not running on this computer (see Connection).',
    };
  if (localProvider) return { baseUrl: base(push.localUrl), reason: null };
  if (push.registerUrl?.startsWith('https://')) return { baseUrl: base(push.registerUrl), reason: null };
  return {
    baseUrl: null,
    reason:
      'Su fetches each photo from the internet, and this computer has no public address yet: open a tunnel or enter your own https address under Connection › how Su reaches this computer.',
  };
}

/** Reads an image from an address of Su's: only an image answer, within 10 s and 20 MB; null otherwise. */
export async function fetchImageBytes(url: string): Promise<Buffer | null> {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    const response = await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.toLowerCase().startsWith('image/')) return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    return bytes.length > 0 && bytes.length <= 20 * 1024 * 1024 ? bytes : null;
  } catch {
    return null;
  }
}

/** A small JPEG of any image, as a data: URL (for thumbnails of images Su holds). */
export async function smallJpeg(bytes: Buffer): Promise<string> {
  const sharp = await loadSharp();
  const thumb = await sharp(bytes)
    .rotate()
    .resize({ width: 480, height: 480, fit: 'inside' })
    .jpeg({ quality: 72 })
    .toBuffer();
  return `data:image/jpeg;base64,${thumb.toString('base64')}`;
}
