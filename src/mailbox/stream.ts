import type { ServerResponse } from 'node:http';
import { errorText } from '../shared/result';
import type { SealedDelivery } from '../receiving/mailboxProtocol';
import type { MailboxStore } from './store';

const PAGE = 500;

interface Stream {
  deviceId: string;
  response: ServerResponse;
  /** The last sequence number sent on this stream. */
  sent: number;
  pumping: boolean;
  /** Another delivery was stored while this stream was sending: look again when done. */
  again: boolean;
  ping: NodeJS.Timeout;
}

/**
 * The devices' live streams (server-sent events): one per device, a new one closes the old. Each first sends what
 * waits after the position the device gave, then every delivery as soon as it is stored (`stored()` after each
 * commit), in sequence order, never one twice on the same stream; a `ping` event every `pingMs` keeps proxies from
 * closing it and lets a dead connection be found.
 */
export function createStreamHub(store: MailboxStore, pingMs: number) {
  const streams = new Map<string, Stream>();

  const write = (stream: Stream, text: string): Promise<void> =>
    new Promise((resolve) => {
      if (stream.response.destroyed || stream.response.writableEnded) return resolve();
      if (stream.response.write(text)) resolve();
      else {
        const done = () => {
          stream.response.off('drain', done);
          stream.response.off('close', done);
          resolve();
        };
        stream.response.once('drain', done);
        stream.response.once('close', done);
      }
    });

  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

  async function pump(stream: Stream): Promise<void> {
    if (stream.pumping) {
      stream.again = true;
      return;
    }
    stream.pumping = true;
    try {
      do {
        stream.again = false;
        for (;;) {
          if (streams.get(stream.deviceId) !== stream) return;
          let page: { deliveries: SealedDelivery[]; more: boolean };
          try {
            page = store.deliveriesFor(stream.deviceId, stream.sent, PAGE);
          } catch (error) {
            console.error(`mailbox: a stream could not read the store: ${errorText(error)}`);
            return;
          }
          for (const delivery of page.deliveries) {
            await write(stream, event('delivery', delivery));
            stream.sent = delivery.seq;
          }
          if (!page.more) break;
        }
      } while (stream.again);
    } finally {
      stream.pumping = false;
    }
  }

  const end = (stream: Stream) => {
    clearInterval(stream.ping);
    if (streams.get(stream.deviceId) === stream) streams.delete(stream.deviceId);
    if (!stream.response.writableEnded) stream.response.end();
  };

  return {
    /** Opens a device's stream on a hijacked response; closes the device's previous one. */
    open(deviceId: string, response: ServerResponse, after: number): void {
      const previous = streams.get(deviceId);
      if (previous) end(previous);
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // Caddy and nginx pass each event on at once.
        'x-accel-buffering': 'no',
      });
      const stream: Stream = {
        deviceId,
        response,
        sent: after,
        pumping: false,
        again: false,
        ping: setInterval(() => void write(stream, event('ping', { at: store.now() })), pingMs),
      };
      stream.ping.unref();
      streams.set(deviceId, stream);
      response.on('close', () => end(stream));
      // The stream is open: a comment line so the device's reader knows at once.
      void write(stream, ': open\n\n').then(() => pump(stream));
    },
    /** Deliveries were stored: every stream sends what it has not sent yet. */
    stored(): void {
      for (const stream of streams.values()) void pump(stream);
    },
    /** A device was unpaired: its stream ends. */
    closeDevice(deviceId: string): void {
      const stream = streams.get(deviceId);
      if (stream) end(stream);
    },
    /** How many streams are open (for the tests). */
    openStreams: () => streams.size,
    closeAll(): void {
      for (const stream of [...streams.values()]) end(stream);
    },
  };
}
export type StreamHub = ReturnType<typeof createStreamHub>;
