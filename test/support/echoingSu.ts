import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake Su echoes back in its complaints: every credential of the request, and the last client secret it
 * was given (a session dump), as it is, URL-encoded (a query string) and in a Basic header.
 */
function credentialsOf(req: IncomingMessage, body: string, lastSecret: string): string {
  const h = req.headers;
  return [
    `client-secret=${lastSecret}`,
    `query=?client_secret=${encodeURIComponent(lastSecret)}`,
    `basic=Basic ${Buffer.from(`partner:${lastSecret}`).toString('base64')}`,
    `Authorization=${String(h.authorization ?? '')}`,
    `x-api-key=${String(h['x-api-key'] ?? '')}`,
    `url=${req.url ?? ''}`,
    `body=${body}`,
  ].join('; ');
}

/**
 * A small stand-in for Su on loopback whose refusals quote back what it was sent (the secret, the key, the
 * Authorization header): the careless provider the app must not trust with its secrets. It accepts the client
 * secret `goodSecret` for tokens and refuses rate pushes and payment links, echoing; it answers notifications
 * with an account failure that echoes too; everything else it answers with success. Its main API lives under /SUAPI and its payment host under /PAY.
 */
export async function startEchoingSu(goodSecret: string) {
  const seen: { path: string; status: number }[] = [];
  let lastSecret = '';
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://su').pathname;
      if (typeof req.headers['client-secret'] === 'string') lastSecret = req.headers['client-secret'];
      const echo = credentialsOf(req, body, lastSecret);
      const reply = (status: number, value: unknown) => {
        seen.push({ path, status });
        answer(res, status, value);
      };
      if (path.endsWith('/jservice/auth/generate-access-token')) {
        if (req.headers['client-secret'] === goodSecret)
          return reply(200, {
            success: true,
            data: { token: 'sandbox_tok-7Hq2LmW9xZ', token_type: 'Bearer', expire_in: 3600 },
            message: 'ok',
          });
        return reply(401, { success: false, message: `Invalid client secret. Request was: ${echo}` });
      }
      if (path.endsWith('/jservice/pmsproperty')) return reply(200, { Status: 'Success', Data: [] });
      if (path.endsWith('/jservice/invratecontrol'))
        return reply(400, {
          Success: false,
          Errors: [{ Code: '497', ShortText: `Rate plan not mapped for this account. Debug: ${echo}` }],
        });
      // A call that succeeds with one account's failure inside it: the echo is in the answer, not an error.
      if (path.endsWith('/jservice/notificationAB'))
        return reply(200, [
          { status: 'Fail', message: `Account needs attention. Debug: ${echo}`, data: { 'ACC-1': [] } },
        ]);
      if (path.startsWith('/PAY/'))
        return reply(400, { Status: 'Fail', ErrorMessages: [`Payment refused for this partner. Debug: ${echo}`] });
      return reply(200, { Status: 'Success' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    mainBaseUrl: `${base}/SUAPI`,
    tokenBaseUrl: `${base}/PAY`,
    /** The paths asked and what the fake answered, in order. */
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
