import { app, ipcMain, type BrowserWindow, type Tray } from 'electron';
import ElectronStore from 'electron-store';
import { fileURLToPath } from 'node:url';
import type { Core } from '../../core';
import { startCoreWithDemo } from '../../demo';
import { readRuntimeConfig } from '../../config/runtimeConfig';
import { createFileSecretStore } from '../../config/secretStore';
import { EVENT_CHANNEL } from '../../../shared/ipcChannels';
import { isAppMainFrame, registerIpcGateway } from './ipcGateway';
import { safeStorageCodec } from './secretCodec';
import { createTray, showNativeNotification } from './tray';
import { createMainWindow, rendererUrl } from './window';
import { errorText } from '../../../shared/result';

// The Electron host: lifecycle, window, tray, safeStorage and the IPC gateway. Everything else is the core.
let window: BrowserWindow | null = null;
let core: Core | null = null;
let tray: Tray | null = null;

/** Brings the window forward on a thread (a notification was clicked). */
function openThread(threadId: number): void {
  if (!window) return;
  window.show();
  window.focus();
  void window.webContents.executeJavaScript(`location.hash = '#/inbox/${threadId}'`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.whenReady().then(start, (error: unknown) => fatal(error));
}

async function start(): Promise<void> {
  const config = readRuntimeConfig({
    ...process.env,
    INNKEEPER_DATA_DIR: process.env.INNKEEPER_DATA_DIR || app.getPath('userData'),
  });
  const settings = new ElectronStore<Record<string, unknown>>({
    cwd: config.dataDir,
    name: 'settings',
    clearInvalidConfig: true,
  });
  core = await startCoreWithDemo({
    host: 'electron',
    version: app.getVersion(),
    dataDir: config.dataDir,
    settings: {
      get: (k) => settings.get(k) as never,
      set: (k, v) => settings.set(k, v),
      delete: (k) => settings.delete(k),
    },
    secrets: createFileSecretStore(config.dataDir, safeStorageCodec),
    forceDemo: config.forceDemo,
    pushEnv: config.push,
    notifier: {
      newMessage: (m) =>
        showNativeNotification({
          title: `${m.guestName ?? 'A guest'} on ${m.channelName}`,
          body: m.preview,
          onClick: () => openThread(m.threadId),
        }),
      unreadCount: (n) => tray?.setToolTip(n > 0 ? `Innkeeper — ${n} unread` : 'Innkeeper'),
    },
  });
  const preloadDir = fileURLToPath(new URL('../preload', import.meta.url));
  window = createMainWindow(preloadDir);
  const appUrl = rendererUrl();
  registerIpcGateway(
    ipcMain,
    core.dispatcher,
    (event) => window !== null && isAppMainFrame(event, { webContentsId: window.webContents.id, appUrl }),
  );
  core.events.onAny((event, payload) => {
    if (window && !window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event, payload);
  });
  tray = createTray(
    () => window,
    () => app.quit(),
  );
  window.on('closed', () => (window = null));
}

app.on('window-all-closed', () => {
  // The tray keeps the app (and, in later features, the push receiver) running.
});
app.on('activate', () => {
  if (!window && core) window = createMainWindow(fileURLToPath(new URL('../preload', import.meta.url)));
});
app.on('before-quit', () => void core?.close());

function fatal(error: unknown): void {
  console.error(`Innkeeper could not start: ${errorText(error)}`);
  app.exit(1);
}
