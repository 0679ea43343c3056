import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileSecrets } from '../../src/main/config/secrets';
import { createConfSettings } from '../../src/main/config/settings';
import type { LoginItems } from '../../src/main/desktop/startAtLogin';
import { startCore } from '../../src/main/core';
import type { StartAtLoginState } from '../../src/shared/desktop';
import { contractClient } from '../support/contract';
import { startEmulatorHarness } from '../support/emulatorHarness';
import { eventually } from '../support/eventually';

// "Start Innkeeper when I log in" in a real core (real settings file, the real dispatcher), with the OS's login
// items played by a recording fake: what the Electron host hands the core.
const running: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of running.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function osItems(enabled = false): LoginItems & { enabled: () => boolean; fail?: boolean } {
  const items = {
    fail: false,
    enabled: () => enabled,
    isEnabled: () => enabled,
    setEnabled: (on: boolean) => {
      if (items.fail) throw new Error('EACCES: permission denied, open ~/.config/autostart/innkeeper.desktop');
      enabled = on;
    },
  };
  return items;
}

async function start(dataDir: string, loginItems?: LoginItems) {
  const core = await startCore({
    host: loginItems ? 'electron' : 'browser',
    version: '0.0.0-test',
    dataDir,
    settings: createConfSettings(dataDir),
    secrets: createFileSecrets(dataDir),
    options: {
      forceDemo: false,
      intakeEnv: { port: 0 },
      demo: { deliveries: false },
      ...(loginItems ? { loginItems } : {}),
    },
  });
  running.push(core);
  const seen: StartAtLoginState[] = [];
  core.events.on('desktop.changed', (state) => void seen.push(state));
  return { core, seen, ...contractClient(() => core.dispatcher) };
}

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'innkeeper-login-core-'));
  dirs.push(dir);
  return dir;
};
const sandbox = {
  environment: 'sandbox' as const,
  mainBaseUrl: 'https://a.example/SUAPI',
  tokenBaseUrl: 'https://b.example',
  domain: 'x.example',
};

/** A sandbox account that really connects: an emulator of its own plays Su's sandbox on loopback. */
async function workingSandbox() {
  const su = await startEmulatorHarness();
  running.push({ close: () => su.close() });
  const o = su.emulator.state.options;
  return {
    environment: 'sandbox' as const,
    mainBaseUrl: su.emulator.mainUrl,
    tokenBaseUrl: su.emulator.tokenUrl,
    domain: o.domain,
    secrets: { clientSecret: o.clientSecret },
  };
}

describe('start at login in the core', () => {
  it('is off on the demo and on saved settings that never connected, on once a real account connects, and the owner’s choice then wins', async () => {
    const items = osItems();
    const { call, dispatch, seen } = await start(newDir(), items);
    expect(await call('desktop.startAtLogin')).toEqual({
      available: true,
      on: false,
      chosenByOwner: false,
      realAccount: false,
    });
    expect(items.enabled()).toBe(false);

    // Saved, but its test fails (nothing answers there): not connected, so not started at login.
    await call('connection.save', sandbox);
    expect((await dispatch('connection.test', sandbox)).ok).toBe(false);
    expect(await call('desktop.startAtLogin')).toMatchObject({ on: false, realAccount: false });
    expect(items.enabled()).toBe(false);

    const working = await workingSandbox();
    await call('connection.save', working);
    expect(await call('desktop.startAtLogin')).toMatchObject({ on: false, realAccount: false });
    expect((await dispatch('connection.test', working)).ok).toBe(true);
    expect(
      await eventually(
        async () => items.enabled(),
        (on) => on,
      ),
    ).toBe(true);
    expect(seen.at(-1)).toMatchObject({ on: true, realAccount: true, chosenByOwner: false });

    expect(await call('desktop.setStartAtLogin', { on: false })).toMatchObject({ on: false, chosenByOwner: true });
    expect(items.enabled()).toBe(false);
    expect(seen.at(-1)).toMatchObject({ on: false, chosenByOwner: true });
    // Saving the account again does not overrule the owner.
    await call('connection.save', working);
    await call('desktop.startAtLogin');
    expect(items.enabled()).toBe(false);
  });

  it('keeps the choice in the settings file and applies it at the next start', async () => {
    const dataDir = newDir();
    const first = await start(dataDir, osItems());
    await first.call('connection.save', sandbox);
    await first.call('desktop.setStartAtLogin', { on: false });
    await first.core.close();
    running.splice(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      desktop: { startAtLogin: false },
    });
    const items = osItems(true); // still registered from before
    const again = await start(dataDir, items);
    expect(await again.call('desktop.startAtLogin')).toMatchObject({ on: false, chosenByOwner: true });
    expect(items.enabled()).toBe(false);
  });

  it('in browser mode keeps the choice for the desktop app and says it cannot register', async () => {
    const { call } = await start(newDir());
    expect(await call('desktop.startAtLogin')).toMatchObject({ available: false, on: false });
    expect(await call('desktop.setStartAtLogin', { on: true })).toEqual({
      available: false,
      on: true,
      chosenByOwner: true,
      realAccount: false,
    });
  });

  it('a choice the OS refuses is kept and answered with a clear error naming the field', async () => {
    const items = osItems();
    const { dispatch } = await start(newDir(), items);
    items.fail = true;
    const refused = await dispatch('desktop.setStartAtLogin', { on: true });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({ code: 'login_item_failed', field: 'on' });
    expect(refused.error.message).toContain('Your choice is kept');
    expect(refused.error.message).toContain('EACCES');
  });

  it('refuses a choice that is not on or off, naming the field', async () => {
    const { dispatchUnchecked } = await start(newDir(), osItems());
    const bad = await dispatchUnchecked('desktop.setStartAtLogin', { on: 'yes' });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.field).toBe('on');
    expect(bad.error.message).toContain('on or off');
  });
});
