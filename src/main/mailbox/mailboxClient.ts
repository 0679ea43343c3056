import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { z } from 'zod';
import {
  confirmAnswerSchema,
  deliveriesAnswerSchema,
  healthAnswerSchema,
  mediaAnswerSchema,
  pairAnswerSchema,
  sealedDeliverySchema,
  type DeliveriesAnswer,
  type MailboxHealth,
  type PairAnswer,
  type PairRequest,
  type SealedDelivery,
} from '../../receiving/mailboxProtocol';
import { errorText } from '../../shared/result';

const mediaDeletedSchema = z.object({ deleted: z.boolean() });
const deviceRemovedSchema = z.object({ unpaired: z.string() });

/** How long one call to the mailbox may take (the stream has its own rule: a ping at least this often). */
const CALL_TIMEOUT_MS = 20_000;

/** The mailbox answered with a refusal (`status`, its `error` code and, when one was wrong, the `field`). */
export class MailboxRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `the mailbox answered ${status} (${code})`);
    this.name = 'MailboxRefusal';
  }
}

/** The mailbox could not be reached, or what answered is not a mailbox. */
export class MailboxUnreachable extends Error {
  constructor(
    message: string,
    /** True when something answered, but not as a mailbox does (a web page, another program). */
    readonly notAMailbox = false,
  ) {
    super(message);
    this.name = 'MailboxUnreachable';
  }
}

async function answerOf<S extends z.ZodType>(response: Response, schema: S): Promise<z.output<S>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // A device credential refused (revoked, or never known): the mailbox may close before saying more.
    if (response.status === 401) throw new MailboxRefusal(401, 'unauthorized', {});
    throw new MailboxUnreachable(`it answered ${response.status} with something that is not a mailbox’s answer`, true);
  }
  if (!response.ok) {
    const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof record.error !== 'string' && response.status !== 401)
      throw new MailboxUnreachable(
        `it answered ${response.status} with something that is not a mailbox’s answer`,
        true,
      );
    throw new MailboxRefusal(response.status, typeof record.error === 'string' ? record.error : 'unauthorized', record);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new MailboxUnreachable('its answer is not what a mailbox answers', true);
  return parsed.data;
}

/** What the network said, in short ("connection refused", "timed out"). */
function networkText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'it did not answer in time';
  if (cause?.code === 'ECONNREFUSED') return 'nothing answers at that address (connection refused)';
  if (cause?.code === 'ENOTFOUND') return 'that name is not known (check the address)';
  if (cause?.code?.startsWith('CERT_') || cause?.code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return `its https certificate is not valid (${cause.code})`;
  return cause?.message ?? errorText(error);
}

/**
 * The mailbox's HTTP API as this computer calls it (src/receiving/mailboxProtocol.ts): every answer checked against
 * its schema. `token` is the device's credential (absent only for pairing).
 */
export function mailboxClient(baseUrl: string, token?: string) {
  const headers = (json: boolean): Record<string, string> => ({
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  async function call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<z.output<S>> {
    let response: Response;
    try {
      const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: headers(body !== undefined),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new MailboxUnreachable(networkText(error));
    }
    return answerOf(response, schema);
  }

  return {
    pair: (request: PairRequest): Promise<PairAnswer> => call('POST', '/mailbox/pair', pairAnswerSchema, request),
    deliveries: (after: number, limit: number, signal?: AbortSignal): Promise<DeliveriesAnswer> =>
      call('GET', `/mailbox/deliveries?after=${after}&limit=${limit}`, deliveriesAnswerSchema, undefined, signal),
    confirm: (upTo: number, signal?: AbortSignal) =>
      call('POST', '/mailbox/confirm', confirmAnswerSchema, { upTo }, signal),
    health: (signal?: AbortSignal): Promise<MailboxHealth> =>
      call('GET', '/mailbox/health', healthAnswerSchema, undefined, signal),
    /** Hands a photo to the mailbox for Su to fetch: answers its public address. */
    putMedia: async (name: string, bytes: Buffer): Promise<string> => {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/mailbox/media/${encodeURIComponent(name)}`, {
          method: 'PUT',
          headers: { ...headers(false), 'content-type': 'image/jpeg' },
          body: new Uint8Array(bytes),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
          redirect: 'error',
        });
      } catch (error) {
        throw new MailboxUnreachable(networkText(error));
      }
      return (await answerOf(response, mediaAnswerSchema)).url;
    },
    /** The photo's address stops answering (Su has its copy, or it is no longer needed). */
    deleteMedia: async (name: string): Promise<void> => {
      await call('DELETE', `/mailbox/media/${encodeURIComponent(name)}`, mediaDeletedSchema);
    },
    /**
     * Unpairs ANOTHER device (this computer's credential must still work: a 401 is a refusal here, not "done"). A
     * device the mailbox does not know (404) is a refusal too; the caller says it is already gone.
     */
    removeDevice: async (deviceId: string): Promise<void> => {
      await call('DELETE', `/mailbox/devices/${encodeURIComponent(deviceId)}`, deviceRemovedSchema);
    },
    unpair: async (deviceId: string): Promise<void> => {
      const response = await fetch(`${baseUrl}/mailbox/devices/${encodeURIComponent(deviceId)}`, {
        method: 'DELETE',
        headers: headers(false),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        redirect: 'error',
      }).catch((error: unknown) => {
        throw new MailboxUnreachable(networkText(error));
      });
      // Already unknown there (revoked from another computer): unpaired all the same.
      if (response.ok || response.status === 401 || response.status === 404) {
        await response.body?.cancel();
        return;
      }
      await answerOf(response, confirmAnswerSchema);
    },
    /**
     * The live stream of deliveries after `after` (server-sent events): calls `onDelivery` for each, in order, and
     * `onAlive` for every event (pings included). Resolves when the mailbox closes it; rejects on a refusal, a
     * network failure, or `signal`.
     */
    async stream(
      after: number,
      signal: AbortSignal,
      onDelivery: (delivery: SealedDelivery) => void,
      onAlive: () => void,
    ): Promise<void> {
      // Read with node:http(s), not fetch: fetch keeps a body timeout on undici's timer, which wakes the core twice a
      // second for as long as a body is being read, and this one is read all day (bench/RESULTS.md, idle). The
      // stream's own rule (a ping at least every STREAM_PING_MS, watched by the collector) stands in for it.
      let response: IncomingMessage;
      try {
        response = await openStream(
          new URL(`${baseUrl}/mailbox/stream?after=${after}`),
          {
            ...headers(false),
            accept: 'text/event-stream',
          },
          signal,
        );
      } catch (error) {
        if (signal.aborted) throw error;
        throw new MailboxUnreachable(networkText({ cause: error }));
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        const text = await readText(response).catch(() => '');
        // A redirect is not followed (calls do not follow one either): what answered is not a mailbox.
        if (status < 400 || status > 599)
          throw new MailboxUnreachable(`it answered ${status} with something that is not a mailbox’s answer`, true);
        await answerOf(new Response(text, { status }), confirmAnswerSchema);
        throw new MailboxUnreachable(`it answered ${status}`, true); // answerOf throws for every status above
      }
      if (!String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        response.destroy();
        throw new MailboxUnreachable('it does not answer as a mailbox (no event stream)', true);
      }
      onAlive();
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          buffered += decoder.decode(chunk, { stream: true });
          let end: number;
          // Events end with a blank line (\n\n; \r\n\r\n from some servers).
          while ((end = buffered.search(/\r?\n\r?\n/)) >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end).replace(/^\r?\n\r?\n/, '');
            onAlive();
            const event = readEvent(block);
            if (event.name !== 'delivery') continue;
            const parsed = sealedDeliverySchema.safeParse(JSON.parse(event.data));
            if (!parsed.success) throw new MailboxUnreachable('it sent a delivery that is not one', true);
            onDelivery(parsed.data);
          }
        }
      } catch (error) {
        if (signal.aborted || error instanceof MailboxUnreachable) throw error;
        throw new MailboxUnreachable(`the connection was cut (${networkText(error)})`);
      }
    },
  };
}

export type MailboxClient = ReturnType<typeof mailboxClient>;

/** A GET of `url` with `headers`, over http or https as the address says: its response once its headers are in. */
function openStream(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers, signal }, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** The rest of a response's body, as text. */
async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** One server-sent event: its name (`message` by default) and its data lines joined. */
function readEvent(block: string): { name: string; data: string } {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return { name, data: data.join('\n') };
}
