import { Menu, Notification, Tray, nativeImage } from 'electron';
import { fileURLToPath } from 'node:url';
import { trayMenuTemplate } from './trayMenu';

/**
 * The tray icon: a click opens the window (creating it again if it was closed); its menu opens the window, turns
 * "Start Innkeeper when I log in" on or off, and quits (after the warning). `refresh()` redraws the menu when the
 * start-at-login state changed (here, or on the Connection screen).
 */
export function createTray(actions: {
  open(): void;
  quit(): void;
  startAtLogin(): boolean;
  setStartAtLogin(on: boolean): void;
}): { tray: Tray; refresh(): void } {
  const icon = nativeImage.createFromPath(fileURLToPath(new URL('../../resources/tray.png', import.meta.url)));
  const tray = new Tray(icon);
  tray.setToolTip('Innkeeper');
  const refresh = () =>
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate({
          open: actions.open,
          quit: actions.quit,
          startAtLogin: actions.startAtLogin(),
          // The menu is drawn again when the core announces the change (desktop.changed).
          setStartAtLogin: actions.setStartAtLogin,
        }),
      ),
    );
  refresh();
  tray.on('click', actions.open);
  return { tray, refresh };
}

/** The native-notification adapter: a title and body, and what clicking it does. */
export function showNativeNotification(message: { title: string; body: string; onClick?: () => void }): void {
  if (!Notification.isSupported()) return;
  const n = new Notification({ title: message.title, body: message.body, silent: false });
  if (message.onClick) n.on('click', message.onClick);
  n.show();
}
