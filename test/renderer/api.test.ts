import { afterEach, describe, expect, it } from 'vitest';
import type { InnkeeperApi } from '@shared/contract';
import { connect } from '@renderer/api';

afterEach(() => {
  delete window.innkeeper;
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('how the window reaches the core', () => {
  it('finds nothing in browser mode opened without its session link (the app then does not mount)', () => {
    window.history.replaceState(null, '', '/#/inbox');
    expect(connect()).toBeNull();
  });

  it('uses the Electron preload’s API when there is one', () => {
    const preload = { on: () => () => {} } as unknown as InnkeeperApi;
    window.innkeeper = preload;
    expect(connect()).toBe(preload);
  });

  it('takes the session token out of the address, and finds it again after a reload', () => {
    window.history.replaceState(null, '', '/?session=secret-token#/inbox');
    const api = connect();
    expect(api).not.toBeNull();
    expect(typeof api?.['inbox.counts']).toBe('function');
    expect(window.location.href).not.toContain('session=');
    expect(window.location.hash).toBe('#/inbox');
    expect(connect()).not.toBeNull(); // the same tab, reloaded: the token was kept for it
  });
});
