import Fastify from 'fastify';
import { createProviderClient } from '../../src/main/provider/client';
import { createTokenManager } from '../../src/main/provider/tokenManager';
import { issueToken } from '../../src/main/provider/auth';
import { createHostClient } from '../../src/main/provider/http';
import { fixtureText } from './fixtures';

/**
 * A loopback server that answers each path with a recorded provider payload (status + raw fixture text), and
 * a provider client pointed at it. `answers` maps a path to [status, fixture name or raw body].
 */
export async function startFixtureProvider(
  answers: Record<string, [number, string]>,
  environment: 'sandbox' | 'production' = 'sandbox',
) {
  const app = Fastify();
  const received: { path: string; headers: Record<string, unknown>; body: unknown }[] = [];
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    received.push({
      path,
      headers: request.headers,
      body: request.body ? JSON.parse(String(request.body)) : undefined,
    });
    const answer = answers[path];
    if (!answer) return reply.code(404).send('no fixture');
    const [status, source] = answer;
    const text = source.endsWith('.json') ? fixtureText(source) : source;
    return reply.code(status).header('content-type', 'application/json').send(text);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const tokens = createTokenManager({
    environment,
    issue: () => issueToken(createHostClient(base), { clientId: 'ZGVtbw==', clientSecret: 'secret' }),
  });
  const client = createProviderClient({
    mainBaseUrl: base,
    tokenBaseUrl: base,
    tokens,
    credentials: {
      facilityAppId: 'app',
      facilityApiKey: 'facility-key',
      notificationUser: 'user',
      notificationPassword: 'notification-password',
      paymentApiName: 'APP',
      paymentApiKey: 'payment-key',
    },
  });
  return {
    client,
    received,
    /** Requests other than the token request. */
    calls: () => received.filter((r) => !r.path.endsWith('generate-access-token')),
    close: () => app.close(),
  };
}

export const TOKEN_ANSWER: Record<string, [number, string]> = {
  '/jservice/auth/generate-access-token': [200, 'token-response-sandbox.json'],
};
