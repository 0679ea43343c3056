// Only types come from electron here: the OS adapters for "Start Innkeeper when I log in" are tested under plain
// Node (the Linux autostart entry on real files). The policy (when it is on) is the core's: src/main/desktop.
import type { App } from 'electron';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoginItems } from '../../desktop/startAtLogin';

/** Given to the app when the OS starts it at login: it starts in the tray, without opening the window. */
export const HIDDEN_ARG = '--hidden';

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

/** True when the OS started the app at login: it then stays in the tray until the owner opens the window. */
export function openedAtLogin(argv: readonly string[], macOpenedAtLogin = false): boolean {
  return macOpenedAtLogin || argv.includes(HIDDEN_ARG);
}
