import { Menu, Notification, Tray, nativeImage } from 'electron';
import { fileURLToPath } from 'node:url';

/** The tray icon: opens the window (creating it again if it was closed) and quits the app. */
export function createTray(show: () => void, quit: () => void): Tray {
  const icon = nativeImage.createFromPath(fileURLToPath(new URL('../../resources/tray.png', import.meta.url)));
  const tray = new Tray(icon);
  tray.setToolTip('Innkeeper');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Innkeeper', click: show },
      { type: 'separator' },
      { label: 'Quit Innkeeper', click: quit },
    ]),
  );
  tray.on('click', show);
  return tray;
}

/** The native-notification adapter: a title and body, and what clicking it does. */
export function showNativeNotification(message: { title: string; body: string; onClick?: () => void }): void {
  if (!Notification.isSupported()) return;
  const n = new Notification({ title: message.title, body: message.body, silent: false });
  if (message.onClick) n.on('click', message.onClick);
  n.show();
}
