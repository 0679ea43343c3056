import { notificationsRequestSchema, type NotificationsRequest } from '../../../shared/su/images';
import { isObject, resultFlag } from '../envelope';
import { callEndpoint, type ProviderContext } from '../request';

/** One notification from an Airbnb account. */
export interface ChannelNotification {
  id: string;
  type: string;
  title: string;
  subtitle: string;
  actionUrl: string;
}

/** One connected channel account's answer: its notifications, or why they could not be fetched. */
export interface AccountNotifications {
  accountId: string;
  ok: boolean;
  message: string | null;
  notifications: ChannelNotification[];
}

const text = (v: unknown) => (v == null ? '' : String(v));

/**
 * Endpoint 12: notifications for a property on channel 244, HTTP Basic. The answer is an array with one
 * element per account; `data` maps the account id to its notifications. A failure of the whole call is the
 * main envelope (Status Fail, Errors).
 */
export function fetchNotifications(ctx: ProviderContext, input: NotificationsRequest): Promise<AccountNotifications[]> {
  return callEndpoint(
    ctx,
    {
      what: 'Loading channel notifications',
      host: 'main',
      path: '/jservice/notificationAB',
      auth: 'basic',
      schema: notificationsRequestSchema,
      parse: (body) => {
        if (!Array.isArray(body)) return null;
        return body.filter(isObject).flatMap((element) => {
          const ok = resultFlag(element)?.toLowerCase() === 'success';
          const message = typeof element.message === 'string' ? element.message : null;
          const accounts = isObject(element.data) ? Object.entries(element.data) : [];
          if (accounts.length === 0) return [{ accountId: '', ok, message, notifications: [] }];
          return accounts.map(([accountId, list]) => ({
            accountId,
            ok,
            message,
            notifications: (Array.isArray(list) ? list : []).filter(isObject).map((n) => ({
              id: text(n.notification_id),
              type: text(n.notification_type),
              title: text(n.title),
              subtitle: text(n.subtitle),
              actionUrl: text(n.cta_url),
            })),
          }));
        });
      },
      fieldFor: (p) => (p.code === '400' || /hotel/i.test(p.text) ? 'hotelid' : p.field),
    },
    input,
  );
}
