import { afterEach, describe, expect, it } from 'vitest';
import type { InnkeeperApi } from '@shared/contract';
import { connect } from '@renderer/api';
import { requestOf } from '@renderer/api/httpApi';
import { CALL_ARGS_HEADER, CALL_BYTES_TYPE } from '@shared/callBytes';

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

describe('what a call sends in browser mode', () => {
  it('arguments as JSON; a chunk of bytes as the body, its other arguments in a header of ASCII only', () => {
    expect(requestOf({ threadId: 7, body: 'Grüße' })).toEqual({
      headers: { 'Content-Type': 'application/json' },
      body: '{"threadId":7,"body":"Grüße"}',
    });
    const data = new Uint8Array([0, 1, 254, 255]);
    const request = requestOf({ uploadId: 'ab12', offset: 131072, data, note: 'café ☕' });
    expect(request.body).toBe(data); // the bytes themselves: no base64, no copy
    expect(request.headers['Content-Type']).toBe(CALL_BYTES_TYPE);
    const header = request.headers[CALL_ARGS_HEADER]!;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(header)).toEqual({ uploadId: 'ab12', offset: 131072, note: 'café ☕' });
  });
});
