/** Whether this window may raise browser notifications (browser mode only: Electron's host raises native ones). */
export function browserNotificationsAvailable(host: string | undefined): boolean {
  return host === 'browser' && typeof Notification !== 'undefined';
}

/**
 * Raises a browser notification (browser mode, permission granted) when the window is in the background; a click
 * brings the window forward and calls `open`. The inbox's new messages, the Property screen's notices and the paid
 * payment links use it.
 */
export function notifyInBackground(
  host: string | undefined,
  title: string,
  options: NotificationOptions,
  open: () => void,
): void {
  const watching = document.visibilityState === 'visible' && document.hasFocus();
  if (watching || !browserNotificationsAvailable(host) || Notification.permission !== 'granted') return;
  const notification = new Notification(title, options);
  notification.onclick = () => {
    window.focus();
    open();
    notification.close();
  };
}
