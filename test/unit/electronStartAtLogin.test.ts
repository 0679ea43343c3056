import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfSettings } from '../../src/main/config/settings';
import {
  createStartAtLogin,
  isRealAccount,
  START_AT_LOGIN_KEY,
  type LoginItems,
} from '../../src/main/desktop/startAtLogin';
import {
  electronLoginItems,
  HIDDEN_ARG,
  linuxAutostart,
  openedAtLogin,
} from '../../src/main/hosts/electron/loginItems';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'innkeeper-login-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The OS's login items, recording every change the app makes. */
function fakeItems(enabled = false): LoginItems & { changes: boolean[] } {
  const changes: boolean[] = [];
  return {
    changes,
    isEnabled: () => enabled,
    setEnabled: (on) => void (changes.push(on), (enabled = on)),
  };
}

function setup(real: boolean) {
  const dataDir = tempDir();
  const state = { real };
  const settings = createConfSettings(dataDir);
  const items = fakeItems();
  const startAtLogin = createStartAtLogin({ settings, items, realAccount: () => state.real });
  return { dataDir, state, settings, items, startAtLogin };
}

describe('"Start Innkeeper when I log in"', () => {
  it('is off on the demo and turns on by itself once a real account is connected', () => {
    const { state, items, startAtLogin } = setup(false);
    expect(startAtLogin.apply().on).toBe(false);
    expect(items.changes).toEqual([]);
    expect(startAtLogin.state()).toEqual({ available: true, on: false, chosenByOwner: false, realAccount: false });
    state.real = true; // the owner saved their sandbox or production account
    expect(startAtLogin.apply().on).toBe(true);
    expect(items.changes).toEqual([true]);
    expect(startAtLogin.state()).toEqual({ available: true, on: true, chosenByOwner: false, realAccount: true });
    startAtLogin.apply();
    expect(items.changes).toEqual([true]); // nothing to change: the OS is not asked again
  });

  it('the owner’s choice wins over the default, and is kept across restarts', () => {
    const { dataDir, state, items, startAtLogin } = setup(true);
    startAtLogin.apply();
    expect(startAtLogin.choose(false).on).toBe(false);
    expect(items.changes).toEqual([true, false]);
    expect(startAtLogin.state()).toMatchObject({ on: false, chosenByOwner: true, realAccount: true });
    // Saving credentials again (connection.changed) does not turn it back on.
    state.real = true;
    expect(startAtLogin.apply().on).toBe(false);
    // The next start reads the choice from the settings file.
    const again = createStartAtLogin({
      settings: createConfSettings(dataDir),
      items: fakeItems(false),
      realAccount: () => true,
    });
    expect(again.state()).toMatchObject({ on: false, chosenByOwner: true });
    // An owner who turns it on while on the demo gets it on.
    const onDemo = setup(false);
    expect(onDemo.startAtLogin.choose(true).on).toBe(true);
    expect(onDemo.items.changes).toEqual([true]);
    expect(onDemo.settings.get(START_AT_LOGIN_KEY)).toBe(true);
  });

  it('where the app cannot register (browser mode, a dev run), the choice is kept for the desktop app', () => {
    const dataDir = tempDir();
    const browser = createStartAtLogin({ settings: createConfSettings(dataDir), realAccount: () => true });
    expect(browser.state()).toEqual({ available: false, on: true, chosenByOwner: false, realAccount: true });
    expect(browser.choose(false)).toEqual({ available: false, on: false, chosenByOwner: true, realAccount: true });
    // The desktop app, started on the same data folder, applies it.
    const items = fakeItems(true);
    const desktop = createStartAtLogin({ settings: createConfSettings(dataDir), items, realAccount: () => true });
    expect(desktop.apply()).toMatchObject({ available: true, on: false });
    expect(items.changes).toEqual([false]);
  });

  it('a real account is a saved sandbox or production one that connected, never the demo (not even a forced one)', () => {
    const connected = () => true;
    expect(isRealAccount({ savedActive: null, demoForced: false }, connected)).toBe(false);
    expect(isRealAccount({ savedActive: 'demo', demoForced: false }, connected)).toBe(false);
    expect(isRealAccount({ savedActive: 'sandbox', demoForced: false }, connected)).toBe(true);
    expect(isRealAccount({ savedActive: 'production', demoForced: false }, connected)).toBe(true);
    expect(isRealAccount({ savedActive: 'production', demoForced: true }, connected)).toBe(false);
    // Saved but never connected (or its last test failed): not yet.
    expect(isRealAccount({ savedActive: 'sandbox', demoForced: false }, () => false)).toBe(false);
    const asked: string[] = [];
    isRealAccount({ savedActive: 'production', demoForced: false }, (environment) => (asked.push(environment), true));
    expect(asked).toEqual(['production']);
  });

  it('on Linux, writes and removes an XDG autostart entry that starts the app in the tray', () => {
    const config = tempDir();
    const items = linuxAutostart(config, '/home/o/Apps/Innkeeper 0.1.0.AppImage');
    const file = join(config, 'autostart', 'innkeeper.desktop');
    expect(items.isEnabled()).toBe(false);
    items.setEnabled(true);
    expect(items.isEnabled()).toBe(true);
    const entry = readFileSync(file, 'utf8');
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Innkeeper\n');
    expect(entry).toContain(`Exec="/home/o/Apps/Innkeeper 0.1.0.AppImage" ${HIDDEN_ARG}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    // An entry for another path (the AppImage moved) counts as not set, and is written anew.
    expect(linuxAutostart(config, '/opt/Innkeeper/innkeeper').isEnabled()).toBe(false);
    items.setEnabled(false);
    expect(existsSync(file)).toBe(false);
    items.setEnabled(false); // already gone: no error
    writeFileSync(file, 'hand-edited');
    expect(items.isEnabled()).toBe(false);
  });

  it('quotes what a desktop entry would otherwise run differently', () => {
    const config = tempDir();
    linuxAutostart(config, '/tmp/a "b" $HOME`x`\\y').setEnabled(true);
    const entry = readFileSync(join(config, 'autostart', 'innkeeper.desktop'), 'utf8');
    expect(entry).toContain('Exec="/tmp/a \\"b\\" \\$HOME\\`x\\`\\\\y" --hidden');
  });

  it('on Windows registers the login item with --hidden; on macOS without arguments', () => {
    const calls: unknown[] = [];
    const app = {
      setLoginItemSettings: (s: unknown) => void calls.push(s),
      getLoginItemSettings: (o?: unknown) => (calls.push(['get', o]), { openAtLogin: true }) as never,
    };
    electronLoginItems(app, 'win32').setEnabled(true);
    expect(electronLoginItems(app, 'win32').isEnabled()).toBe(true);
    electronLoginItems(app, 'darwin').setEnabled(false);
    expect(calls).toEqual([
      { openAtLogin: true, args: [HIDDEN_ARG] },
      ['get', { args: [HIDDEN_ARG] }],
      { openAtLogin: false },
    ]);
  });

  it('started at login, the app stays in the tray; started by the owner, it opens its window', () => {
    expect(openedAtLogin(['/opt/Innkeeper/innkeeper', HIDDEN_ARG])).toBe(true);
    expect(openedAtLogin(['/opt/Innkeeper/innkeeper'])).toBe(false);
    expect(openedAtLogin(['/Applications/Innkeeper.app/Contents/MacOS/Innkeeper'], true)).toBe(true);
  });
});
