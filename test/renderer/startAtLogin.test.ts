import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StartAtLoginState } from '@shared/desktop';
import { fail, ok } from '@shared/result';
import { useDesktopStore } from '@renderer/features/desktop/desktopStore';
import StartAtLoginSection from '@renderer/features/desktop/StartAtLoginSection.vue';
import { startAtLoginNote } from '@renderer/features/desktop/startAtLoginWords';
import { useAppStore } from '@renderer/api/appStore';
import { installFakeApi } from './fakeApi';

const desktop = (over: Partial<StartAtLoginState> = {}): StartAtLoginState => ({
  available: true,
  on: true,
  chosenByOwner: false,
  realAccount: true,
  ...over,
});

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});

function mountSection(host: 'electron' | 'browser') {
  useAppStore().info = { version: '0.1.0', host, dataDir: '/d', secretStorage: 'file' };
  return mount(StartAtLoginSection, { global: { plugins: [PrimeVue, pinia] }, attachTo: document.body });
}

describe('"Start Innkeeper when I log in" on the Connection screen', () => {
  it('shows what is in force and why, and sends the owner’s choice', async () => {
    const core = installFakeApi({ 'desktop.startAtLogin': () => ok(desktop()) });
    const wrapper = mountSection('electron');
    await flushPromises();
    const toggle = wrapper.get<HTMLInputElement>('input#startAtLogin');
    expect(toggle.element.checked).toBe(true);
    expect(wrapper.get('label[for="startAtLogin"]').text()).toBe('Start Innkeeper when I log in');
    expect(wrapper.text()).toContain('only 3 more times');
    expect(wrapper.get('#startAtLoginNote').text()).toBe(
      'On because you connected your Su account: after a restart, messages keep arriving.',
    );
    await toggle.setValue(false);
    const [call] = core.pending('desktop.setStartAtLogin');
    expect(call?.args).toEqual({ on: false });
    call!.answer(ok(desktop({ on: false, chosenByOwner: true })));
    await flushPromises();
    expect(wrapper.get<HTMLInputElement>('input#startAtLogin').element.checked).toBe(false);
    expect(wrapper.get('#startAtLoginNote').text()).toBe(
      'After a restart, messages arrive only once you open Innkeeper yourself.',
    );
    wrapper.unmount();
  });

  it('follows a change made in the tray', async () => {
    const core = installFakeApi({ 'desktop.startAtLogin': () => ok(desktop({ on: false, realAccount: false })) });
    const wrapper = mountSection('electron');
    await flushPromises();
    expect(wrapper.get<HTMLInputElement>('input#startAtLogin').element.checked).toBe(false);
    core.emit('desktop.changed', desktop({ on: true, chosenByOwner: true }));
    await flushPromises();
    expect(wrapper.get<HTMLInputElement>('input#startAtLogin').element.checked).toBe(true);
    wrapper.unmount();
  });

  it('in browser mode says it applies to the desktop app, and still keeps the choice', async () => {
    const core = installFakeApi({ 'desktop.startAtLogin': () => ok(desktop({ available: false })) });
    const wrapper = mountSection('browser');
    await flushPromises();
    expect(wrapper.get('#startAtLoginNote').text()).toBe(
      'This applies to the desktop app: browser mode cannot start by itself. Your choice is kept, and the installed app follows it when it runs.',
    );
    await wrapper.get('input#startAtLogin').setValue(false);
    expect(core.pending('desktop.setStartAtLogin')).toHaveLength(1);
    wrapper.unmount();
  });

  it('a refused change leaves the switch as it really is, with the reason', async () => {
    installFakeApi({
      'desktop.startAtLogin': () => ok(desktop()),
      'desktop.setStartAtLogin': () =>
        fail({ code: 'login_item_failed', message: 'Your system refused to add Innkeeper to the login items.' }),
    });
    const wrapper = mountSection('electron');
    await flushPromises();
    await wrapper.get('input#startAtLogin').setValue(false);
    await flushPromises();
    expect(wrapper.get<HTMLInputElement>('input#startAtLogin').element.checked).toBe(true);
    expect(wrapper.text()).toContain('Your system refused to add Innkeeper to the login items.');
    expect(useDesktopStore().saving).toBe(false);
    wrapper.unmount();
  });
});

describe('the words under the switch', () => {
  it('say when it turns on by itself, and that a dev run does not register', () => {
    expect(startAtLoginNote(desktop({ on: false, realAccount: false }), 'electron')).toBe(
      'Turns on by itself once you connect a sandbox or production account.',
    );
    expect(startAtLoginNote(desktop({ chosenByOwner: true }), 'electron')).toBe(
      'Innkeeper starts in the tray when you log in, and keeps receiving.',
    );
    expect(startAtLoginNote(desktop({ available: false }), 'electron')).toContain('a development run');
  });
});
