import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '@shared/connection';
import { ok } from '@shared/result';
import { setCoreLink } from '@renderer/api/link';
import ConnectionBadge from '@renderer/features/connection/ConnectionBadge.vue';
import { useConnectionStore } from '@renderer/features/connection/connectionStore';
import { installFakeApi } from './fakeApi';
import { $, mountIt } from './paymentsDom';

// Browser mode: the sidebar's token countdown is what the core said while the page reached it. While the app is
// stopped it says so instead of counting down a token nobody can vouch for, and counts again from what the core says
// once it is back.

const MINUTE = 60_000;
const stateWith = (expiresAt: number) =>
  ({ active: 'demo', token: { expiresAt }, firstRun: false }) as unknown as ConnectionState;

afterEach(() => {
  setCoreLink('connected');
  document.body.innerHTML = '';
});

describe('the sidebar badge while the app is stopped', () => {
  it('says the app is not running instead of counting down, and counts again from the token read after reconnecting', async () => {
    let expiresAt = Date.now() + 30 * MINUTE;
    installFakeApi({ 'connection.get': () => ok(stateWith(expiresAt)) });
    const pinia = createPinia();
    setActivePinia(pinia);
    const store = useConnectionStore();
    await store.load();
    const wrapper = mountIt(ConnectionBadge, pinia);
    await flushPromises();
    const status = () => $('connection-badge-status')!.textContent!.trim();
    const title = () => $('connection-badge')!.getAttribute('title');
    expect(status()).toMatch(/^Token valid · (29|30) min \d\d s$/);

    setCoreLink('disconnected');
    await flushPromises();
    expect(status()).toBe('Innkeeper is not running');
    expect(title()).toBe('Built-in demo provider · Innkeeper is not running');
    expect(wrapper.text()).not.toContain('Token valid');

    // Another program answers at its address instead.
    setCoreLink('refused');
    await flushPromises();
    expect(status()).toBe('Not connected to Innkeeper');

    // Back: no countdown of the old token until the core said which it holds now (a new one, here).
    setCoreLink('connected');
    await flushPromises();
    expect(status()).toBe('Checking the token…');
    expiresAt = Date.now() + 55 * MINUTE;
    await store.load();
    await flushPromises();
    expect(status()).toMatch(/^Token valid · (54|55) min \d\d s$/);
    wrapper.unmount();
  });
});
