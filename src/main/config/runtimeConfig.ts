import { homedir } from 'node:os';
import { join } from 'node:path';

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
  };
}
