import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { completeTransaction, transactionStatus } from './paymentRoutes';
import type { EmulatorState, Transaction } from './state';

/**
 * The page a payment link or widget link opens (`{token_base_url}/get-cc?userId=…`). The real one takes card
 * details; the emulated one has a single button so that a demo user can complete the payment by hand.
 */

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  '<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}' +
  'button{font-size:1rem;padding:.6rem 1.2rem}</style></head>' +
  `<body><h1>${escape(title)}</h1>${body}<p><small>Su payment page (emulated: no card is charged)</small></p></body></html>`;

function find(state: EmulatorState, request: FastifyRequest): Transaction | undefined {
  const userId = (request.query as Record<string, string | undefined>).userId;
  return [...state.transactions.values()].find((t) => t.userId === userId);
}

const notFound = (reply: FastifyReply) =>
  reply.code(404).type('text/html').send(page('Link not found', '<p>This payment link is not valid.</p>'));

export function registerPaymentPage(app: FastifyInstance, state: EmulatorState): void {
  app.get('/get-cc', async (request, reply) => {
    const t = find(state, request);
    if (!t) return notFound(reply);
    const status = transactionStatus(state, t);
    if (status === 'Success') {
      return reply.type('text/html').send(page('Payment received', '<p>This payment is complete.</p>'));
    }
    if (status === 'Failed') {
      return reply.type('text/html').send(page('Payment declined', '<p>The card was declined.</p>'));
    }
    const what =
      t.kind === 'paycard'
        ? `<p>Amount: <strong>${escape(t.amount)} ${escape(t.currency)}</strong> (order ${escape(t.order_id ?? '')})</p>`
        : `<p>Card details for booking <strong>${escape(t.booking_id ?? '')}</strong></p>`;
    const action = `get-cc?userId=${encodeURIComponent(t.userId)}`;
    const button = t.kind === 'paycard' ? 'Pay now' : 'Save card';
    return reply
      .type('text/html')
      .send(page('Secure payment', `${what}<form method="post" action="${action}"><button>${button}</button></form>`));
  });

  app.post('/get-cc', async (request, reply) => {
    const t = find(state, request);
    if (!t) return notFound(reply);
    completeTransaction(state, t);
    if (t.returnUrl) return reply.redirect(t.returnUrl, 303);
    return reply.type('text/html').send(page('Payment received', '<p>Thank you. You can close this window.</p>'));
  });
}
