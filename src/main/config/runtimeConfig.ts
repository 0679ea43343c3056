import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mailboxUrlProblem, normalMailboxUrl, normalPairingCode } from '../../shared/mailbox';
import { guessablePassword } from '../../shared/secretRules';

/**
 * The OS app-data folder Electron uses for `userData`, so browser mode and the desktop app share data:
 * %APPDATA%\Innkeeper, ~/Library/Application Support/Innkeeper, or $XDG_CONFIG_HOME/Innkeeper (~/.config).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const name = 'Innkeeper';
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), name);
}

/** Configuration a host reads from the environment (documented in docs/configuration.md). */
export interface RuntimeConfig {
  dataDir: string;
  webPort: number;
  forceDemo: boolean;
  /** INNKEEPER_DEMO_INBOX=0: the demo delivers nothing by itself (no sample inbox, no everyday messages). */
  demoDeliveries: boolean;
  /** INNKEEPER_PUSH_PORT / _USER / _PASSWORD (their names as owners set them): the listener, fixed for headless runs and tests. */
  intake: { port?: number; username?: string; password?: string };
  /** INNKEEPER_MAILBOX_URL / _CODE: pair with the owner's mailbox at start (the push credentials go to it). */
  mailbox: { url?: string; code?: string };
}

export function readRuntimeConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const port = env.INNKEEPER_WEB_PORT;
  const webPort = port === undefined || port === '' ? 0 : Number(port);
  if (!Number.isInteger(webPort) || webPort < 0 || webPort > 65535) {
    throw new Error(`INNKEEPER_WEB_PORT must be a port number 0-65535, got "${port}"`);
  }
  const demo = env.INNKEEPER_DEMO;
  if (demo !== undefined && !['', '0', '1', 'true', 'false'].includes(demo)) {
    throw new Error(`INNKEEPER_DEMO must be 1 or 0, got "${demo}"`);
  }
  const demoInbox = env.INNKEEPER_DEMO_INBOX;
  if (demoInbox !== undefined && !['', '0', '1', 'true', 'false'].includes(demoInbox)) {
    throw new Error(`INNKEEPER_DEMO_INBOX must be 1 or 0, got "${demoInbox}"`);
  }
  const pushPort = env.INNKEEPER_PUSH_PORT;
  if (
    pushPort !== undefined &&
    pushPort !== '' &&
    !(Number.isInteger(Number(pushPort)) && Number(pushPort) >= 0 && Number(pushPort) <= 65535)
  ) {
    throw new Error(`INNKEEPER_PUSH_PORT must be a port number 0-65535, got "${pushPort}"`);
  }
  const pushPassword = env.INNKEEPER_PUSH_PASSWORD;
  if (pushPassword !== undefined && pushPassword !== '' && pushPassword.length < 16) {
    throw new Error('INNKEEPER_PUSH_PASSWORD must be at least 16 characters');
  }
  const guessable = pushPassword ? guessablePassword(pushPassword) : null;
  if (guessable) throw new Error(`INNKEEPER_PUSH_PASSWORD is easy to guess: ${guessable}`);
  const mailboxUrl = env.INNKEEPER_MAILBOX_URL?.trim() || undefined;
  const mailboxCode = env.INNKEEPER_MAILBOX_CODE?.trim() || undefined;
  const urlProblem = mailboxUrl ? mailboxUrlProblem(mailboxUrl) : null;
  if (urlProblem) throw new Error(`INNKEEPER_MAILBOX_URL is "${mailboxUrl}": ${urlProblem}`);
  if (mailboxCode && !mailboxUrl)
    throw new Error('INNKEEPER_MAILBOX_CODE is set without INNKEEPER_MAILBOX_URL: set the mailbox’s address too.');
  return {
    dataDir: env.INNKEEPER_DATA_DIR || defaultDataDir(env),
    webPort,
    forceDemo: demo === '1' || demo === 'true',
    demoDeliveries: demoInbox !== '0' && demoInbox !== 'false',
    intake: {
      ...(pushPort ? { port: Number(pushPort) } : {}),
      ...(env.INNKEEPER_PUSH_USER ? { username: env.INNKEEPER_PUSH_USER } : {}),
      ...(pushPassword ? { password: pushPassword } : {}),
    },
    mailbox: {
      ...(mailboxUrl ? { url: normalMailboxUrl(mailboxUrl) } : {}),
      ...(mailboxCode ? { code: normalPairingCode(mailboxCode) } : {}),
    },
  };
}

/** Files only Innkeeper writes: a folder holding one of them is Innkeeper's (the database is there from the first start). */
const INNKEEPER_MARKS = [
  'innkeeper.db',
  'innkeeper.db-wal',
  'secrets.enc.json',
  'web-session.json',
  'demo-provider.json',
  'demo-provider.sqlite',
  'restore.json',
];
/** Every name Innkeeper writes in its data folder (a folder holding only these is Innkeeper's, e.g. settings.json made
 * by hand before the first start). */
const INNKEEPER_NAMES = new Set([
  ...INNKEEPER_MARKS,
  'innkeeper.db-shm',
  'demo-provider.sqlite-wal',
  'demo-provider.sqlite-shm',
  'innkeeper.db.restoring',
  'settings.json',
  'secrets.json',
  'restore.json.invalid',
  'backups',
  'locks',
  'damaged',
  'photos',
]);
const isInnkeeperName = (name: string) => INNKEEPER_NAMES.has(name.replace(/\.tmp$/, ''));

/**
 * INNKEEPER_DATA_DIR must name Innkeeper's own folder: a new or empty one (Innkeeper makes it its own), one that
 * holds Innkeeper's files, or one holding nothing but names Innkeeper writes. A folder that holds other files (a home
 * folder, a project) is refused before anything is written or any mode changed in it, with a message that names the
 * variable and the folder. The OS app-data folder used by default is not checked (the desktop app shares it with
 * Electron's own files).
 */
export function checkDataDirFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  const dir = env.INNKEEPER_DATA_DIR;
  if (!dir) return;
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) {
      throw new Error(
        `INNKEEPER_DATA_DIR is ${dir}, which is a file, not a folder. Point it at a new or empty folder.`,
      );
    }
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (!code) throw error;
    throw new Error(`INNKEEPER_DATA_DIR is ${dir}, which cannot be read (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (names.some((name) => INNKEEPER_MARKS.includes(name))) return;
  const others = names.filter((name) => !isInnkeeperName(name));
  if (others.length === 0) return;
  const shown = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
  throw new Error(
    `INNKEEPER_DATA_DIR is ${dir}, a folder that holds other files (${shown}) and is not an Innkeeper data folder. Innkeeper changed nothing in it. Point INNKEEPER_DATA_DIR at a new or empty folder, or at an existing Innkeeper data folder.`,
  );
}
