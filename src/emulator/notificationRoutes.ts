import type { FastifyInstance } from 'fastify';
import { failEnvelope } from './authRoutes';
import { basicAuth } from './credentials';
import type { EmulatorState } from './state';
import { isObject } from './validate';

/**
 * Endpoint 12, notifications for channel 244: HTTP Basic; one array element per connected channel-244 account, each
 * `{status, message?, data: {<account id>: [notifications]}}`.
 */
export function registerNotificationRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post('/jservice/notificationAB', { onRequest: basicAuth(state) }, async (request, reply) => {
    const hotelid = isObject(request.body) ? request.body.hotelid : undefined;
    if (typeof hotelid !== 'string' || hotelid === '') {
      return reply.code(400).send(failEnvelope('400', 'hotelid: is required'));
    }
    const property = state.property(hotelid);
    if (!property) return reply.code(400).send(failEnvelope('400', `invalid hotel code (${hotelid})`));
    return reply.send(
      property.channel244Accounts.map((account) =>
        account.failure
          ? { status: 'Fail', message: account.failure, data: { [account.accountId]: [] } }
          : { status: 'Success', data: { [account.accountId]: account.notifications } },
      ),
    );
  });
}
