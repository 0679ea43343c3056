import { afterEach, describe, expect, it } from 'vitest';
import { coreLink, onReconnect, setCoreLink } from '@renderer/api/link';

afterEach(() => setCoreLink('connected'));

describe('the link to the core (browser mode after a restart)', () => {
  it('is connected until the page learns otherwise, then follows what it learns', () => {
    expect(coreLink.value).toBe('connected');
    setCoreLink('disconnected');
    expect(coreLink.value).toBe('disconnected');
    setCoreLink('refused');
    expect(coreLink.value).toBe('refused');
  });

  it('tells the reconnect listeners once each time the link comes back, and not while it stays up', () => {
    let reloads = 0;
    const stop = onReconnect(() => reloads++);
    setCoreLink('connected');
    expect(reloads).toBe(0);
    setCoreLink('disconnected');
    setCoreLink('disconnected');
    setCoreLink('connected');
    setCoreLink('connected');
    expect(reloads).toBe(1);
    stop();
    setCoreLink('disconnected');
    setCoreLink('connected');
    expect(reloads).toBe(1);
  });
});
