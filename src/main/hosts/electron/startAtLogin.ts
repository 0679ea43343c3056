// Only types come from electron here: the policy and the Linux autostart file are tested under plain Node.
import type { App } from 'electron';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionState } from '../../../shared/connection';
import type { SettingsStore } from '../../config/settingsStore';

/** The owner's own choice (true/false); absent until they make one. */
export const START_AT_LOGIN_KEY = 'desktop.startAtLogin';
/** Given to the app when the OS starts it at login: it starts in the tray, without opening the window. */
export const HIDDEN_ARG = '--hidden';

/** How one OS starts an app when the owner logs in. */
export interface LoginItems {
  isEnabled(): boolean;
  setEnabled(enabled: boolean): void;
}

/** Windows and macOS: Electron's login item (Windows passes --hidden; macOS reports it was opened at login). */
export function electronLoginItems(
  app: Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>,
  platform: NodeJS.Platform,
): LoginItems {
  const args = platform === 'win32' ? [HIDDEN_ARG] : [];
  return {
    isEnabled: () => app.getLoginItemSettings(platform === 'win32' ? { args } : undefined).openAtLogin,
    setEnabled: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, ...(args.length ? { args } : {}) }),
  };
}

/** An argument in a desktop entry's Exec line, quoted as the freedesktop spec asks. */
function execArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

/**
 * Linux: an XDG autostart entry, `<config>/autostart/innkeeper.desktop`, which the desktop runs at login.
 * `exec` is what starts the app: the AppImage's own path ($APPIMAGE) or the installed binary.
 */
export function linuxAutostart(configHome: string, exec: string): LoginItems {
  const dir = join(configHome, 'autostart');
  const file = join(dir, 'innkeeper.desktop');
  const entry = [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Innkeeper',
    'Comment=Receives your guests’ messages and reviews in the background',
    `Exec=${execArg(exec)} ${HIDDEN_ARG}`,
    'Icon=innkeeper',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
  return {
    isEnabled: () => existsSync(file) && readFileSync(file, 'utf8') === entry,
    setEnabled: (enabled) => {
      if (!enabled) return rmSync(file, { force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, entry, { mode: 0o644 });
    },
  };
}

/**
 * A development run (`electron-vite dev` / preview) is not registered with the OS: the login item would start
 * a bare Electron. The choice is still kept and shown; it takes effect in the installed app.
 */
export function unregisteredLoginItems(): LoginItems {
  let enabled = false;
  return { isEnabled: () => enabled, setEnabled: (on) => void (enabled = on) };
}

/** True when the provider in use is a real Su account (sandbox or production) the owner saved, not the demo. */
export function isRealAccount(state: Pick<ConnectionState, 'savedActive' | 'demoForced'>): boolean {
  return !state.demoForced && (state.savedActive === 'sandbox' || state.savedActive === 'production');
}

/** True when the OS started the app at login: it then stays in the tray until the owner opens the window. */
export function openedAtLogin(argv: readonly string[], macOpenedAtLogin = false): boolean {
  return macOpenedAtLogin || argv.includes(HIDDEN_ARG);
}

export interface StartAtLoginOptions {
  settings: SettingsStore;
  items: LoginItems;
  /** True once the owner's provider in use is a real account (sandbox or production), not the demo. */
  realAccount(): boolean;
}

/**
 * "Start Innkeeper when I log in": on by default once the owner connected a real account (so pushes keep
 * arriving after a restart), off before; the owner's own choice, once made, always wins.
 */
export function createStartAtLogin(options: StartAtLoginOptions) {
  const chosen = (): boolean | undefined => {
    const value = options.settings.get<unknown>(START_AT_LOGIN_KEY);
    return typeof value === 'boolean' ? value : undefined;
  };
  const wanted = (): boolean => chosen() ?? options.realAccount();

  /** Makes the OS match what is wanted (at start, and when the connection changes). */
  const apply = (): boolean => {
    const on = wanted();
    if (options.items.isEnabled() !== on) options.items.setEnabled(on);
    return on;
  };

  return {
    /** Whether the app starts at login, and whether that is the owner's choice or the default. */
    state: () => ({ on: wanted(), chosenByOwner: chosen() !== undefined }),
    apply,
    /** The owner's choice: kept in the settings, and applied at once. */
    choose(on: boolean): boolean {
      options.settings.set(START_AT_LOGIN_KEY, on);
      return apply();
    },
  };
}
