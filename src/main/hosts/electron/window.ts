import { BrowserWindow, session } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../csp';

/** The page the window loads: the dev server during `electron-vite dev`, the built file otherwise. */
export function rendererUrl(): string {
  const dev = process.env.ELECTRON_RENDERER_URL;
  if (dev) return dev;
  return `file://${fileURLToPath(new URL('../renderer/index.html', import.meta.url))}`;
}

/**
 * The one app window. SECURITY: sandboxed renderer, context isolation, no Node integration and a strict CSP on
 * every response; navigation, new windows, <webview> and permissions are guarded for this and every other web
 * contents by contentsGuard.ts (registered in main.ts). `route` is the hash to open (`#/inbox/12`).
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
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${appUrl}${route}`);
  return win;
}
