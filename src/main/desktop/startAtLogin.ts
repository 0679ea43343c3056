import type { ConnectionState } from '../../shared/connection';
import type { StartAtLoginState } from '../../shared/desktop';
import type { Settings } from '../config/settings';

/** The owner's own choice (true/false) in the settings; absent until they make one. */
export const START_AT_LOGIN_KEY = 'desktop.startAtLogin';

/** How the OS starts an app when the owner logs in (the Electron host's adapters in hosts/electron/loginItems.ts). */
export interface LoginItems {
  isEnabled(): boolean;
  setEnabled(enabled: boolean): void;
}

/**
 * True when the provider in use is a real Su account (sandbox or production) the owner saved and connected: its
 * last "Test connection" worked. Saved settings that never connected do not start Innkeeper at login.
 */
export function isRealAccount(
  state: Pick<ConnectionState, 'savedActive' | 'demoForced'>,
  connected: (environment: 'sandbox' | 'production') => boolean,
): boolean {
  if (state.demoForced) return false;
  const saved = state.savedActive;
  return (saved === 'sandbox' || saved === 'production') && connected(saved);
}

export interface StartAtLoginOptions {
  settings: Settings;
  /** The OS's login items; absent where the app cannot register (browser mode): the choice is only kept. */
  items?: LoginItems;
  /** True once the owner's provider in use is a real account (sandbox or production) that connected. */
  realAccount(): boolean;
}

export type StartAtLogin = ReturnType<typeof createStartAtLogin>;

/**
 * "Start Innkeeper when I log in": on by default once the owner connected a real account (so pushes keep
 * arriving after a restart), off before; the owner's own choice, once made, always wins.
 */
export function createStartAtLogin(options: StartAtLoginOptions) {
  const chosen = (): boolean | undefined => {
    const value = options.settings.get<unknown>(START_AT_LOGIN_KEY);
    return typeof value === 'boolean' ? value : undefined;
  };
  const state = (): StartAtLoginState => {
    const owner = chosen();
    const realAccount = options.realAccount();
    return {
      available: options.items !== undefined,
      on: owner ?? realAccount,
      chosenByOwner: owner !== undefined,
      realAccount,
    };
  };

  /** Makes the OS match what is wanted (at start, and when the connection changes). */
  const apply = (): StartAtLoginState => {
    const now = state();
    if (options.items && options.items.isEnabled() !== now.on) options.items.setEnabled(now.on);
    return now;
  };

  return {
    state,
    apply,
    /** The owner's choice: kept in the settings, and applied at once where the app can register. */
    choose(on: boolean): StartAtLoginState {
      options.settings.set(START_AT_LOGIN_KEY, on);
      return apply();
    },
  };
}
