import { app, dialog, ipcMain, shell, utilityProcess } from 'electron';
import ElectronStore from 'electron-store';
import { fileURLToPath } from 'node:url';
import { EVENT_CHANNEL } from '../../../shared/ipcChannels';
import { errorText } from '../../../shared/result';
import { checkDataDirFromEnv, readRuntimeConfig } from '../../config/runtimeConfig';
import { createFileSecrets } from '../../config/secrets';
import type { Settings } from '../../config/settings';
import type { Core } from '../../core';
import { startCore } from '../../core';
import type { DemoRunOptions } from '../../demo/feature';
import type { Notifier } from '../../inbox/news';
import type { NoticeNotifier } from '../../notices/handlers';
import type { PaymentNotifier } from '../../payments/handlers';
import { contractCaller } from '../../gateway/dispatcher';
import { applyEngineFlags } from '../engineFlags';
import { createContentsGuard } from './contentsGuard';
import { isAppMainFrame, registerIpcGateway } from './ipcGateway';
import { utilityReaderProcess } from './readerProcess';
import { safeStorageCodec } from './secretCodec';
import { electronLoginItems, linuxAutostart, openedAtLogin } from './loginItems';
import { createTray, showNativeNotification } from './tray';
import { createClosedHint, createQuitFlow } from './trayMenu';
import { createMainWindow, rendererUrl } from './window';
import { createWindowKeeper } from './windowKeeper';

// The Electron host: lifecycle, window, tray, safeStorage and the IPC gateway. Everything else is the core, which
// runs in this (the main) process, with the engine flags both hosts set.
applyEngineFlags();
let core: Core | null = null;
let quitting = false;
let windowClosed: () => void = () => undefined;
const preloadDir = fileURLToPath(new URL('../preload', import.meta.url));

// SECURITY: every web contents the app ever creates is guarded, not only the main window's.
const guard = createContentsGuard({ appUrl: rendererUrl(), openExternal: (url) => shell.openExternal(url) });
app.on('web-contents-created', (_event, contents) => guard(contents));

const windows = createWindowKeeper({
  create: (route) => {
    const window = createMainWindow(preloadDir, route);
    // Closing the window leaves the app in the tray, receiving: said once, the first time.
    window.once('closed', () => {
      if (!quitting) windowClosed();
    });
    return window;
  },
  navigate: (window, route) => void window.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`),
});
/** The window, created again if it was closed; only once the core runs (before that there is nothing to show). */
const showWindow = (route?: string) => {
  if (core) windows.show(route);
};

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Starting Innkeeper again brings its window forward (but not the OS starting it at login a second time).
  app.on('second-instance', (_event, argv) => {
    if (!openedAtLogin(argv)) showWindow();
  });
  // A start that fails (also after the core started) says why and stops.
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error));
}

async function start(): Promise<void> {
  // A folder that is not Innkeeper's (INNKEEPER_DATA_DIR at a home folder, a project) is refused before anything in
  // it is changed; the OS app-data folder used by default is Electron's and Innkeeper's.
  checkDataDirFromEnv(process.env);
  const config = readRuntimeConfig({
    ...process.env,
    INNKEEPER_DATA_DIR: process.env.INNKEEPER_DATA_DIR || app.getPath('userData'),
  });
  const store = new ElectronStore<Record<string, unknown>>({
    cwd: config.dataDir,
    name: 'settings',
    clearInvalidConfig: true,
  });
  const settings: Settings = {
    get: (k) => store.get(k) as never,
    set: (k, v) => store.set(k, v),
    delete: (k) => store.delete(k),
  };
  let tray: ReturnType<typeof createTray> | null = null;
  const notifier: Notifier & NoticeNotifier & PaymentNotifier = {
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
    unreadCount: (n) => tray?.tray.setToolTip(n > 0 ? `Innkeeper — ${n} unread` : 'Innkeeper'),
  };
  const running = await startCore({
    host: 'electron',
    version: app.getVersion(),
    dataDir: config.dataDir,
    settings,
    secrets: createFileSecrets(config.dataDir, safeStorageCodec),
    options: {
      forceDemo: config.forceDemo,
      demo: { deliveries: config.demoDeliveries } satisfies DemoRunOptions,
      intakeEnv: config.intake,
      mailboxEnv: config.mailbox,
      notifier,
      // Photos are read in a utility process: the installed binary cannot be forked as Node (its RunAsNode fuse).
      imageProcess: utilityReaderProcess((...args) => utilityProcess.fork(...args)),
      // "Start Innkeeper when I log in" registers only the installed app (a dev run would start a bare Electron).
      ...(app.isPackaged
        ? {
            loginItems:
              process.platform === 'linux'
                ? linuxAutostart(app.getPath('appData'), process.env.APPIMAGE || process.execPath)
                : electronLoginItems(app, process.platform),
          }
        : {}),
    },
  });
  core = running;
  const appUrl = rendererUrl();
  registerIpcGateway(ipcMain, running.dispatcher, (event) => {
    const window = windows.current();
    return window !== null && isAppMainFrame(event, { webContentsId: window.webContents.id, appUrl });
  });
  running.events.onAny((event, payload) => windows.current()?.webContents.send(EVENT_CHANNEL, event, payload));

  // Keeps receiving: the core starts it at login once a real account is connected (the owner's choice wins);
  // the tray shows and changes the same setting as the Connection screen.
  const call = contractCaller(running.dispatcher);
  let startsAtLogin = (await call('desktop.startAtLogin', {})).on;
  running.events.on('desktop.changed', (state) => {
    startsAtLogin = state.on;
    tray?.refresh();
  });
  const requestQuit = createQuitFlow({
    ask: (warning) => dialog.showMessageBox(warning),
    quit: () => app.quit(),
  });
  tray = createTray({
    open: () => showWindow(),
    quit: () => void requestQuit(),
    startAtLogin: () => startsAtLogin,
    setStartAtLogin: (on) =>
      void call('desktop.setStartAtLogin', { on }).catch((error: unknown) =>
        dialog.showErrorBox('Innkeeper', errorText(error)),
      ),
  });
  windowClosed = createClosedHint({
    settings,
    startsAtLogin: () => startsAtLogin,
    notify: (message) => showNativeNotification({ ...message, onClick: () => showWindow() }),
  });
  // Started by the OS at login: it stays in the tray, receiving, until the owner opens the window.
  const macAtLogin = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
  if (!openedAtLogin(process.argv, macAtLogin)) showWindow();
}

app.on('window-all-closed', () => {
  // The tray keeps the app, and with it the push listener and its tunnel, running.
});
app.on('activate', () => showWindow());
app.on('before-quit', () => {
  quitting = true;
  void core?.close();
});

function fatal(error: unknown): void {
  console.error(`Innkeeper could not start: ${errorText(error)}`);
  dialog.showErrorBox('Innkeeper could not start', errorText(error));
  // A core that did start is stopped first, so that the failed start leaves nothing behind (its lock, the demo's
  // demo-provider.json).
  void (core?.close() ?? Promise.resolve()).catch(() => {}).finally(() => app.exit(1));
}
