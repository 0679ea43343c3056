import type { StoredImage } from './state';

/** What Su does with an image it is asked to create: fetch it from its url and keep its own copy. */
export const IMAGE_FETCH = { timeoutMs: 10_000, maxBytes: 50 * 1024 * 1024 } as const;

/**
 * Fetches an image from its source url, as Su does: within a timeout, up to a size limit, and only an image
 * content type. The outcome is kept on the image: its bytes (served at `su_url`), or why the fetch failed (then
 * `su_url` answers 404, which is how an owner meets "images pulled in are blank").
 */
export async function fetchImage(image: StoredImage, now: () => number): Promise<void> {
  const url = image.source_url;
  image.fetch = { state: 'pending', error: null, at: null, bytes: null, contentType: null };
  const done = (patch: Partial<NonNullable<StoredImage['fetch']>>) => {
    // A newer create of the same image started another fetch: this one's outcome no longer matters.
    if (image.source_url !== url) return;
    image.fetch = {
      state: 'failed',
      error: null,
      at: new Date(now()).toISOString(),
      bytes: null,
      contentType: null,
      ...patch,
    };
  };
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(IMAGE_FETCH.timeoutMs), redirect: 'follow' });
    if (!response.ok) return done({ error: `HTTP ${response.status} from ${url}` });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!type.startsWith('image/')) return done({ error: `not an image (content type "${type || 'none'}")` });
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > IMAGE_FETCH.maxBytes) return done({ error: `larger than ${IMAGE_FETCH.maxBytes} bytes` });
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > IMAGE_FETCH.maxBytes) return done({ error: `larger than ${IMAGE_FETCH.maxBytes} bytes` });
      chunks.push(chunk);
    }
    if (size === 0) return done({ error: 'the image is empty' });
    done({ state: 'ok', bytes: Buffer.concat(chunks), contentType: type });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${IMAGE_FETCH.timeoutMs / 1000} s`
        : error instanceof Error
          ? ((error.cause as { code?: string } | undefined)?.code ?? error.message)
          : String(error);
    done({ error: `could not fetch ${url}: ${reason}` });
  }
}
