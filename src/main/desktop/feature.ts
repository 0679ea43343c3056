import { connectionFeature } from '../connection/feature';
import { defineFeature } from '../feature';
import { desktopHandlers } from './handlers';
import { createStartAtLogin, isRealAccount, type LoginItems } from './startAtLogin';

/**
 * The installed app's "Start Innkeeper when I log in". Host option `loginItems`: the OS's, handed in by the
 * Electron host; without it (browser mode, a dev run) the owner's choice is only kept, for the desktop app to
 * follow. Applied at start and whenever the connection changes (a real account turns the default on).
 */
export const desktopFeature = defineFeature({
  name: 'desktop',
  create(context) {
    const { connection } = context.use(connectionFeature);
    const loginItems = context.options.loginItems as LoginItems | undefined;
    const startAtLogin = createStartAtLogin({
      settings: context.settings,
      ...(loginItems ? { items: loginItems } : {}),
      realAccount: () => isRealAccount(connection.state(), (environment) => connection.lastCheckOk(environment)),
    });
    const desktop = desktopHandlers({ startAtLogin, events: context.events });
    context.bus.on('connectionChanged', () => queueMicrotask(desktop.apply));
    return { handlers: desktop.handlers, start: () => desktop.apply() };
  },
});
