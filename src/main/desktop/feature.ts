import type { SettingsStore } from '../config/settingsStore';
import type { FeatureContext } from '../featureContext';
import { desktopHandlers } from './handlers';
import { createStartAtLogin, isRealAccount, type LoginItems } from './startAtLogin';

/**
 * The installed app's "Start Innkeeper when I log in". `loginItems` is the OS's, handed in by the Electron host;
 * without it (browser mode, a dev run) the owner's choice is only kept, for the desktop app to follow.
 */
export function createDesktopFeature(
  context: FeatureContext,
  deps: { settings: SettingsStore; loginItems?: LoginItems },
) {
  const startAtLogin = createStartAtLogin({
    settings: deps.settings,
    ...(deps.loginItems ? { items: deps.loginItems } : {}),
    realAccount: () =>
      isRealAccount(context.connection.state(), (environment) => context.connection.lastCheckOk(environment)),
  });
  return desktopHandlers({ startAtLogin, events: context.events });
}
