// Only types come from electron here: the tray's menu, the quit warning and the close hint are tested under
// plain Node with fake dialogs and settings; tray.ts turns them into the real tray.
import type { MenuItemConstructorOptions, MessageBoxOptions } from 'electron';
import type { Settings } from '../../config/settings';

/**
 * What quitting costs, in the owner's words. Su reposts an unacknowledged message or review only 3 times and
 * then drops it; how far apart those tries are is not stated, so nothing longer is promised.
 */
export const QUIT_WARNING: MessageBoxOptions = {
  type: 'warning',
  title: 'Quit Innkeeper',
  message: 'Quit Innkeeper? New guest messages and reviews will not be received until you start it again.',
  detail:
    'Su tries to deliver each message or review only 3 more times and then drops it, and it does not say how ' +
    'long it keeps trying: a message sent while Innkeeper is closed may reach you only on Airbnb, Booking.com ' +
    'or Expedia themselves.\n\n' +
    'To keep receiving, close the window instead: Innkeeper stays in the tray.',
  buttons: ['Keep receiving', 'Quit anyway'],
  defaultId: 0,
  cancelId: 0,
  noLink: true,
};
const QUIT_BUTTON = 1;

/** The owner's view of the tray icon's menu. */
export function trayMenuTemplate(actions: {
  open(): void;
  quit(): void;
  startAtLogin: boolean;
  setStartAtLogin(on: boolean): void;
}): MenuItemConstructorOptions[] {
  return [
    { label: 'Open Innkeeper', click: () => actions.open() },
    { type: 'separator' },
    {
      label: 'Start Innkeeper when I log in',
      type: 'checkbox',
      checked: actions.startAtLogin,
      click: (item) => actions.setStartAtLogin(item.checked),
    },
    { type: 'separator' },
    { label: 'Quit Innkeeper…', click: () => actions.quit() },
  ];
}

/**
 * Quitting from the tray: the warning first, and the app quits only when the owner confirms. One warning at a
 * time (a second click on Quit while it is open does nothing).
 */
export function createQuitFlow(options: {
  ask(warning: MessageBoxOptions): Promise<{ response: number }>;
  quit(): void;
}) {
  let asking = false;
  return async function requestQuit(): Promise<boolean> {
    if (asking) return false;
    asking = true;
    try {
      const { response } = await options.ask(QUIT_WARNING);
      if (response !== QUIT_BUTTON) return false;
      options.quit();
      return true;
    } finally {
      asking = false;
    }
  };
}

export const CLOSED_HINT_KEY = 'desktop.closedToTrayHintShown';
/** What the first close says; whether the app also starts at login is said only when it does. */
export function closedHint(startsAtLogin: boolean): { title: string; body: string } {
  return {
    title: 'Innkeeper is still receiving',
    body:
      'It keeps running in the tray so guests’ messages arrive' +
      (startsAtLogin ? ', and starts again when you log in. ' : '. ') +
      'To quit, choose Quit Innkeeper in the tray icon’s menu.',
  };
}

/** The first time the owner closes the window, a notification says the app still runs (once, ever). */
export function createClosedHint(options: {
  settings: Settings;
  startsAtLogin(): boolean;
  notify(message: { title: string; body: string }): void;
}) {
  return function windowClosed(): void {
    if (options.settings.get<boolean>(CLOSED_HINT_KEY) === true) return;
    options.settings.set(CLOSED_HINT_KEY, true);
    options.notify(closedHint(options.startsAtLogin()));
  };
}
