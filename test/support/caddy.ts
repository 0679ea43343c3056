import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './tempDir';

/** Debian's Caddy (`apt-get install caddy`; `.ci/run` installs it). */
export const CADDY = '/usr/bin/caddy';

/** A free TCP port on 127.0.0.1 (Caddy cannot be told to pick one and say which). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An answer over https as tests look at it. */
export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One https request trusting only `ca` (Caddy's internal root), on a connection of its own (no keep-alive), from
 * `localAddress` when given (any 127.x.y.z: through Caddy, the mailbox sees it as the caller's address).
 */
export function httpsRequest(
  url: string,
  options: {
    ca: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    localAddress?: string;
    timeoutMs?: number;
  },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ca: options.ca,
        agent: false,
        localAddress: options.localAddress,
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in time`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface RunningCaddy {
  /** The https address Caddy answers at: https://127.0.0.1:PORT */
  url: string;
  /** Caddy's internal root certificate (PEM), the only one the tests' client trusts. */
  ca: string;
  /** What Caddy wrote to its log so far. */
  log: () => string;
  close: () => Promise<void>;
}

/**
 * Debian's Caddy in front of `upstream` (host:port on loopback): https on 127.0.0.1 only, with a certificate from
 * Caddy's own internal CA (`tls internal`), exactly the reverse_proxy of deploy/mailbox/Caddyfile. Everything Caddy
 * keeps (its CA, certificates, autosaved config) goes to a temp folder (storage, HOME and XDG_* point there; nothing
 * in the real home), its admin endpoint is off, and it does not try to install its root in the system's trust store.
 */
export async function startCaddy(upstream: string): Promise<RunningCaddy> {
  if (!existsSync(CADDY)) throw new Error(`${CADDY} is missing: apt-get install -y caddy (.ci/run does it)`);
  const dir = tempDir('innkeeper-caddy-');
  const storage = join(dir.path, 'storage');
  mkdirSync(storage);
  const port = await freePort();
  const httpPort = await freePort();
  const caddyfile = join(dir.path, 'Caddyfile');
  writeFileSync(
    caddyfile,
    [
      '{',
      '\tadmin off',
      '\tskip_install_trust',
      '\tauto_https disable_redirects',
      `\thttp_port ${httpPort}`,
      `\thttps_port ${port}`,
      `\tstorage file_system {`,
      `\t\troot ${storage}`,
      '\t}',
      '}',
      '',
      `https://127.0.0.1:${port} {`,
      '\tbind 127.0.0.1',
      '\ttls internal',
      `\treverse_proxy ${upstream}`,
      '}',
      '',
    ].join('\n'),
  );
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir.path,
    XDG_DATA_HOME: join(dir.path, 'data'),
    XDG_CONFIG_HOME: join(dir.path, 'config'),
  };
  const child: ChildProcess = spawn(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    cwd: dir.path,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += String(d)));
  child.stderr!.on('data', (d) => (log += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));

  const close = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (!gone) child.kill('SIGKILL');
      await exited;
    }
    dir.remove();
  };

  // Ready once its internal CA exists and it answers over https with a certificate from that CA.
  const rootCert = join(storage, 'pki', 'authorities', 'local', 'root.crt');
  const url = `https://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  let lastError = '';
  for (;;) {
    if (gone) {
      await close();
      throw new Error(`caddy stopped at start:\n${log}`);
    }
    if (existsSync(rootCert)) {
      const ca = readFileSync(rootCert, 'utf8');
      try {
        await httpsRequest(`${url}/`, { ca, timeoutMs: 2_000 });
        return { url, ca, log: () => log, close };
      } catch (error) {
        lastError = String(error);
      }
    }
    if (Date.now() > until) {
      await close();
      throw new Error(`caddy did not answer over https within 15 s (${lastError}):\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
