import { app, ipcMain, type Tray } from 'electron';
import ElectronStore from 'electron-store';
import { fileURLToPath } from 'node:url';
import { EVENT_CHANNEL } from '../../../shared/ipcChannels';
import { errorText } from '../../../shared/result';
import { readRuntimeConfig } from '../../config/runtimeConfig';
import { createFileSecretStore } from '../../config/secretStore';
import type { Core } from '../../core';
import { startCoreWithDemo } from '../../demo/startCore';
import { isAppMainFrame, registerIpcGateway } from './ipcGateway';
import { safeStorageCodec } from './secretCodec';
import { createTray, showNativeNotification } from './tray';
import { createMainWindow, rendererUrl } from './window';
import { createWindowKeeper } from './windowKeeper';

// The Electron host: lifecycle, window, tray, safeStorage and the IPC gateway. Everything else is the core.
let core: Core | null = null;
let tray: Tray | null = null;
const preloadDir = fileURLToPath(new URL('../preload', import.meta.url));
const windows = createWindowKeeper({
  create: (route) => createMainWindow(preloadDir, route),
  navigate: (window, route) => void window.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`),
});
/** The window, created again if it was closed; only once the core runs (before that there is nothing to show). */
const showWindow = (route?: string) => {
  if (core) windows.show(route);
};

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
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
    demoRun: { deliveries: config.demoDeliveries },
    pushEnv: config.push,
    notifier: {
      newMessage: (m) =>
        showNativeNotification({
          title: `${m.guestName ?? 'A guest'} on ${m.channelName}`,
          body: m.preview,
          onClick: () => showWindow(`#/inbox/${m.threadId}`),
        }),
      newNotice: (n) =>
        showNativeNotification({
          title: `Airbnb: ${n.title}`,
          body: n.subtitle,
          onClick: () => showWindow(`#/property/${encodeURIComponent(n.hotelId)}/notices`),
        }),
      paymentReceived: (link) =>
        showNativeNotification({
          title: link.kind === 'card' ? 'Payment received' : 'Card details received',
          body: [link.amount && link.currency ? `${link.amount} ${link.currency}` : null, link.forWhom, link.orderId]
            .filter(Boolean)
            .join(' · '),
          onClick: () => showWindow(`#/payments/${link.id}`),
        }),
      unreadCount: (n) => tray?.setToolTip(n > 0 ? `Innkeeper — ${n} unread` : 'Innkeeper'),
    },
  });
  const appUrl = rendererUrl();
  registerIpcGateway(ipcMain, core.dispatcher, (event) => {
    const window = windows.current();
    return window !== null && isAppMainFrame(event, { webContentsId: window.webContents.id, appUrl });
  });
  core.events.onAny((event, payload) => windows.current()?.webContents.send(EVENT_CHANNEL, event, payload));
  tray = createTray(
    () => showWindow(),
    () => app.quit(),
  );
  showWindow();
}

app.on('window-all-closed', () => {
  // The tray keeps the app, and with it the push listener, running.
});
app.on('activate', () => showWindow());
app.on('before-quit', () => void core?.close());

function fatal(error: unknown): void {
  console.error(`Innkeeper could not start: ${errorText(error)}`);
  app.exit(1);
}
