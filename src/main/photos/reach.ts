import type { ImageRefusal, ThumbnailAnswer } from './imageJobs';
import { ImageReadFailure, type ImageReader } from './imageReader';
import type { PhotoReach } from '../../shared/photos';
import type { IntakeStatus } from '../../shared/intake';
import { AppFailure, ErrorCode } from '../../shared/result';
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

/** How long reading one image of Su's may take in all (connect to last byte), and its largest size. */
export const IMAGE_FETCH_LIMITS = { deadlineMs: 10_000, maxBytes: 20 * 1024 * 1024 } as const;

/**
 * Reads an image from an address of Su's: only an image answer, whole within 10 s and 20 MB; null otherwise. The
 * bytes are counted as they come, so an answer that goes on and on is dropped at the cap, not kept in memory.
 */
export async function fetchImageBytes(
  url: string,
  limits: { deadlineMs: number; maxBytes: number } = IMAGE_FETCH_LIMITS,
): Promise<Buffer | null> {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    // The signal covers the body too: a body that trickles ends with the deadline.
    const response = await fetch(parsed, { signal: AbortSignal.timeout(limits.deadlineMs), redirect: 'follow' });
    const type = response.headers.get('content-type') ?? '';
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (!response.ok || !type.toLowerCase().startsWith('image/') || declared > limits.maxBytes || !response.body) {
      await response.body?.cancel();
      return null;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Leaving the loop early cancels the stream, which closes the connection.
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) return null;
      chunks.push(chunk);
    }
    return size > 0 ? Buffer.concat(chunks) : null;
  } catch {
    return null;
  }
}

const REFUSED: Record<ImageRefusal['why'], string> = {
  unknown: 'it is not an image Innkeeper can read.',
  not_a_photo: 'it is not a photo.',
  too_many_pixels: 'it has more pixels than any camera makes.',
  too_much_memory: 'it would take too much memory to read.',
  undecodable: 'its data cannot be decoded (it may be damaged).',
};

/** A small JPEG of an image Su holds, as a data: URL, made in the image reader's process (imageReader.ts). */
export async function smallJpeg(reader: ImageReader, bytes: Buffer): Promise<string> {
  const unreadable = (why: string) =>
    new AppFailure({ code: ErrorCode.Validation, message: `Su’s copy of this image cannot be shown: ${why}` });
  let answer: ThumbnailAnswer;
  try {
    answer = await reader.thumbnail({ bytes, edge: 480 });
  } catch (error) {
    if (error instanceof ImageReadFailure) throw unreadable(`it could not be read safely (${error.reason}).`);
    throw error;
  }
  if (!answer.ok) throw unreadable(REFUSED[answer.refusal.why]);
  return `data:image/jpeg;base64,${Buffer.from(answer.jpeg).toString('base64')}`;
}
