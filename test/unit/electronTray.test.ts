import type { MenuItem, MenuItemConstructorOptions, MessageBoxOptions } from 'electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfSettings } from '../../src/main/config/settings';
import {
  closedHint,
  createClosedHint,
  createQuitFlow,
  QUIT_WARNING,
  trayMenuTemplate,
} from '../../src/main/hosts/electron/trayMenu';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const settings = () => {
  const d = mkdtempSync(join(tmpdir(), 'innkeeper-tray-'));
  dirs.push(d);
  return createConfSettings(d);
};

/** A dialog that answers with the button labelled `answer`, recording what it was shown. */
function fakeDialog(answer: string) {
  const shown: MessageBoxOptions[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  return {
    shown,
    release,
    ask: async (options: MessageBoxOptions) => {
      shown.push(options);
      await held;
      return { response: options.buttons!.indexOf(answer) };
    },
  };
}

const click = (item: MenuItemConstructorOptions, checked?: boolean) =>
  item.click!({ checked } as MenuItem, undefined, {} as never);

describe('quitting from the tray', () => {
  it('warns that pushes stop and how long Su keeps retrying, and quits only when the owner confirms', async () => {
    const dialog = fakeDialog('Quit anyway');
    let quits = 0;
    const requestQuit = createQuitFlow({ ask: dialog.ask, quit: () => quits++ });
    const asked = requestQuit();
    dialog.release();
    expect(await asked).toBe(true);
    expect(quits).toBe(1);
    const [warning] = dialog.shown;
    expect(warning).toBe(QUIT_WARNING);
    const text = `${warning!.message} ${warning!.detail}`;
    expect(text).toContain('will not be received until you start it again');
    expect(text).toContain('only 3 more times');
    expect(text).toContain('does not say how long it keeps trying');
    expect(text).not.toMatch(/minutes|half an hour/); // no interval is promised: Su states none
    expect(text).toContain('close the window instead');
    // Escape or closing the box keeps the app running.
    expect(warning!.buttons![warning!.cancelId!]).toBe('Keep receiving');
    expect(warning!.buttons![warning!.defaultId!]).toBe('Keep receiving');
  });

  it('keeps running when the owner chooses to keep receiving', async () => {
    const dialog = fakeDialog('Keep receiving');
    let quits = 0;
    const requestQuit = createQuitFlow({ ask: dialog.ask, quit: () => quits++ });
    dialog.release();
    expect(await requestQuit()).toBe(false);
    expect(quits).toBe(0);
  });

  it('a second Quit click while the warning is open opens no second warning', async () => {
    const dialog = fakeDialog('Quit anyway');
    let quits = 0;
    const requestQuit = createQuitFlow({ ask: dialog.ask, quit: () => quits++ });
    const first = requestQuit();
    expect(await requestQuit()).toBe(false);
    dialog.release();
    expect(await first).toBe(true);
    expect(dialog.shown).toHaveLength(1);
    expect(quits).toBe(1);
    // Once answered, the next Quit asks again.
    const again = requestQuit();
    expect(await again).toBe(true);
    expect(dialog.shown).toHaveLength(2);
  });
});

describe('the tray menu', () => {
  it('opens the window, shows and changes "Start Innkeeper when I log in", and quits through the warning', () => {
    const calls: string[] = [];
    const menu = trayMenuTemplate({
      open: () => calls.push('open'),
      quit: () => calls.push('quit'),
      startAtLogin: true,
      setStartAtLogin: (on) => calls.push(`startAtLogin=${on}`),
    });
    const labelled = menu.filter((i) => i.label);
    expect(labelled.map((i) => i.label)).toEqual([
      'Open Innkeeper',
      'Start Innkeeper when I log in',
      'Quit Innkeeper…',
    ]);
    const [open, login, quit] = labelled as [
      MenuItemConstructorOptions,
      MenuItemConstructorOptions,
      MenuItemConstructorOptions,
    ];
    expect(login).toMatchObject({ type: 'checkbox', checked: true });
    click(open);
    click(login, false);
    click(quit);
    expect(calls).toEqual(['open', 'startAtLogin=false', 'quit']);
  });
});

describe('closing the window', () => {
  it('says once, the first time, that Innkeeper keeps receiving in the tray', () => {
    const store = settings();
    const shown: { title: string; body: string }[] = [];
    const windowClosed = createClosedHint({
      settings: store,
      startsAtLogin: () => true,
      notify: (m) => void shown.push(m),
    });
    windowClosed();
    windowClosed();
    expect(shown).toEqual([closedHint(true)]);
    expect(shown[0]!.title).toBe('Innkeeper is still receiving');
    expect(shown[0]!.body).toContain('starts again when you log in');
    expect(shown[0]!.body).toContain('Quit Innkeeper in the tray');
    // Not again after a restart either.
    createClosedHint({ settings: store, startsAtLogin: () => true, notify: (m) => void shown.push(m) })();
    expect(shown).toHaveLength(1);
  });

  it('says it starts at login only when it does', () => {
    const shown: { title: string; body: string }[] = [];
    createClosedHint({ settings: settings(), startsAtLogin: () => false, notify: (m) => void shown.push(m) })();
    expect(shown[0]!.body).not.toContain('log in');
    expect(shown[0]!.body).toContain('keeps running in the tray');
  });
});
