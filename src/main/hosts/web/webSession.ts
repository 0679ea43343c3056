import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebHost, type RunningWebHost, type WebHostOptions } from './webHost';

/**
 * Browser mode's session, kept per install so a tab opened with the session link keeps working after the app
 * restarts: the loopback port it last listened on and the session token every call and the event socket present.
 * SECURITY: the file is readable and writable by the owner only (0600); the token is 32 random bytes, never
 * printed anywhere but the session link; a file that cannot be read as a session is replaced by a new one.
 */
export interface WebSession {
  token: string;
  /** The port last listened on; 0 when none yet. */
  port: number;
}

export const WEB_SESSION_FILE = 'web-session.json';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,}$/;
const newToken = () => randomBytes(32).toString('base64url');

export const webSessionFile = (dataDir: string) => join(dataDir, WEB_SESSION_FILE);

function readSession(file: string): WebSession | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<WebSession>;
    const port = Number.isInteger(parsed.port) && parsed.port! > 0 && parsed.port! <= 65535 ? parsed.port! : 0;
    return typeof parsed.token === 'string' && TOKEN_PATTERN.test(parsed.token) ? { token: parsed.token, port } : null;
  } catch {
    return null;
  }
}

/** Writes the session through a temporary file (never a half-written token), owner-only from its creation. */
export function saveWebSession(dataDir: string, session: WebSession): void {
  mkdirSync(dataDir, { recursive: true });
  const file = webSessionFile(dataDir);
  const temp = `${file}.tmp`;
  writeFileSync(temp, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/** The install's session: the one kept in the data folder, or a new token (saved at once). */
export function loadWebSession(dataDir: string): WebSession {
  const file = webSessionFile(dataDir);
  const kept = readSession(file);
  if (kept) {
    // A file someone loosened (copied, restored from a backup) is made owner-only again.
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return kept;
  }
  const session = { token: newToken(), port: 0 };
  saveWebSession(dataDir, session);
  return session;
}

/**
 * Starts the web host with the install's session: the token kept in the data folder, and the port asked for or,
 * when any port will do (0), the one the last run listened on (so an open tab finds the app again), or a free one
 * when that one is taken now. The port used is kept for the next run.
 * SECURITY: the token is kept only with its port. On another port (the kept one was taken, or another was asked
 * for) the session gets a new token: a program on the old port could otherwise learn the old one from an open
 * tab and then call the app; a tab needs the new session link then (printed and opened as at any start).
 */
export async function startWebHostWithSession(
  options: Omit<WebHostOptions, 'token'> & { dataDir: string },
): Promise<RunningWebHost> {
  const kept = loadWebSession(options.dataDir);
  const { dataDir, ...hostOptions } = options;
  const wanted = options.port || kept.port;
  const movedTo = (port: number) => (kept.port && port !== kept.port ? { token: newToken(), port } : kept);
  let session = movedTo(wanted);
  let web: RunningWebHost;
  try {
    web = await startWebHost({ ...hostOptions, port: wanted, token: session.token });
  } catch (error) {
    if (options.port || !wanted || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    session = { token: newToken(), port: 0 };
    web = await startWebHost({ ...hostOptions, port: 0, token: session.token });
  }
  if (web.port !== kept.port || session.token !== kept.token)
    saveWebSession(dataDir, { token: session.token, port: web.port });
  return web;
}
