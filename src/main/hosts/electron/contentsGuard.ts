// Only types come from electron here: the guard is tested under plain Node with fake web contents.
import type { Session, WebContents } from 'electron';
import { isAppPage } from './ipcGateway';

/** What the guard needs of a web contents (a WebContents, or a fake in tests). */
export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'> & { session: GuardedSession };
/** What the guard needs of a session. */
export type GuardedSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;

export interface GuardOptions {
  /** The app's page (file:// of the built renderer, or the dev server). */
  appUrl: string;
  /** Opens a link in the owner's browser (shell.openExternal). */
  openExternal(url: string): Promise<void>;
}

/** The only permission the app's page may have: notifications. Camera, microphone, location, … are refused. */
export const ALLOWED_PERMISSIONS: readonly string[] = ['notifications'];

/** True when `url` may be opened in the owner's browser: https only (no file:, no custom schemes, no http). */
export function isExternalLink(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Who asks for a permission, as Electron describes it. */
export interface PermissionAsker {
  requestingUrl?: string;
  isMainFrame?: boolean;
}

/**
 * The permission decision: only what the app needs, and only for the app's own page in its main frame (a frame,
 * an embedded or a navigated page gets nothing).
 */
export function permissionAllowed(permission: string, asker: PermissionAsker | undefined, appUrl: string): boolean {
  if (!ALLOWED_PERMISSIONS.includes(permission) || !asker?.requestingUrl || asker.isMainFrame === false) return false;
  return isAppPage(asker.requestingUrl, appUrl);
}

/**
 * SECURITY: the one guard for EVERY web contents the app creates (`app.on('web-contents-created')`: the window,
 * any frame's contents, a devtools or a future second window alike): navigation and redirects only within the
 * app's page, no new windows (an https link opens in the owner's browser instead), no <webview>, and permissions
 * denied except notifications for the app's page. Sessions are guarded once each.
 */
export function createContentsGuard(options: GuardOptions) {
  const guardedSessions = new WeakSet<GuardedSession>();

  const guardSession = (session: GuardedSession) => {
    if (guardedSessions.has(session)) return;
    guardedSessions.add(session);
    session.setPermissionRequestHandler((_contents, permission, callback, details) =>
      callback(permissionAllowed(permission, details, options.appUrl)),
    );
    session.setPermissionCheckHandler((_contents, permission, _origin, details) =>
      permissionAllowed(permission, details, options.appUrl),
    );
  };

  return function guard(contents: GuardedContents): void {
    const stayHome = (event: { preventDefault(): void; url: string }) => {
      if (!isAppPage(event.url, options.appUrl)) event.preventDefault();
    };
    contents.on('will-navigate', stayHome);
    contents.on('will-frame-navigate', stayHome);
    contents.on('will-redirect', stayHome);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalLink(url)) void options.openExternal(url).catch(() => undefined);
      return { action: 'deny' };
    });
    guardSession(contents.session);
  };
}
