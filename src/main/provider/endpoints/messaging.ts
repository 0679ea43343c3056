import { encodeReplyLineBreaks } from '../../../shared/channels';
import { messageReplySchema, type MessageReply } from '../../../shared/su/messaging';
import { isSuccess } from '../envelope';
import { callEndpoint, fieldByKeywords, pick, type ProviderContext } from '../request';

/** What the provider said when it accepted a reply. */
export interface ReplySent {
  /** The provider's confirmation text. */
  response: string;
  /** Expedia's tracking id, when given. */
  otaTrackingId?: string;
}

/** Endpoint 6: reply to a guest message. Line breaks are encoded for the channel; both channel keys are sent. */
export function replyToMessage(ctx: ProviderContext, input: MessageReply): Promise<ReplySent> {
  return callEndpoint(
    ctx,
    {
      what: 'Sending the reply',
      host: 'main',
      path: '/jservice/messagingAB',
      auth: 'bearer',
      schema: messageReplySchema,
      // The field list names the channel `channelcode`, the published sample `channelid`: send both.
      toWire: ({ channelcode, message, ...ids }) => ({
        ...ids,
        channelcode,
        channelid: channelcode,
        message: encodeReplyLineBreaks(message, channelcode),
      }),
      parse: (body) => {
        if (!isSuccess(body)) return null;
        const response = pick(body, 'response');
        const tracking = pick(body, 'ota_tracking_id');
        return {
          response: typeof response === 'string' ? response : 'Message sent',
          ...(tracking != null ? { otaTrackingId: String(tracking) } : {}),
        };
      },
      fieldFor: fieldByKeywords([
        [/listing/i, 'listingid'],
        [/thread/i, 'threadid'],
        [/booking/i, 'bookingid'],
        [/property|hotel/i, 'hotelid'],
      ]),
    },
    input,
  );
}
