import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../csp';
import { isAppPage } from './ipcGateway';

/** The page the window loads: the dev server during `electron-vite dev`, the built file otherwise. */
export function rendererUrl(): string {
  const dev = process.env.ELECTRON_RENDERER_URL;
  if (dev) return dev;
  return `file://${fileURLToPath(new URL('../renderer/index.html', import.meta.url))}`;
}

/**
 * The one app window. SECURITY: sandboxed renderer, context isolation, no Node integration, a strict CSP on
 * every response, no navigation away from the app, no new windows (https links open in the browser), and
 * every permission request (camera, notifications, …) denied. `route` is the hash to open (`#/inbox/12`).
 */
export function createMainWindow(preloadDir: string, route = ''): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Innkeeper',
    backgroundColor: '#f6f7f6',
    icon: fileURLToPath(new URL('../../resources/icon.png', import.meta.url)),
    webPreferences: {
      preload: join(preloadDir, 'index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  const appUrl = rendererUrl();

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  // SECURITY: the window never leaves the app's page, whether by link, redirect or a frame navigating.
  const stayHome = (event: { preventDefault(): void; url: string }) => {
    if (!isAppPage(event.url, appUrl)) event.preventDefault();
  };
  win.webContents.on('will-navigate', stayHome);
  win.webContents.on('will-frame-navigate', stayHome);
  win.webContents.on('will-redirect', stayHome);
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${appUrl}${route}`);
  return win;
}
