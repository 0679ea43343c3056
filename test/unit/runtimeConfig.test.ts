import { describe, expect, it } from 'vitest';
import { defaultDataDir, readRuntimeConfig } from '../../src/main/config/runtimeConfig';
import { clientIdFromDomain, domainFromClientId } from '../../src/shared/clientId';

describe('runtime configuration from the environment', () => {
  it('uses the OS app-data folder by default', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/o/.config' }, 'linux')).toBe('/home/o/.config/Innkeeper');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\o\\AppData\\Roaming' }, 'win32')).toContain('Innkeeper');
  });

  it('reads INNKEEPER_DATA_DIR, INNKEEPER_WEB_PORT, INNKEEPER_DEMO and INNKEEPER_DEMO_INBOX', () => {
    expect(
      readRuntimeConfig({ INNKEEPER_DATA_DIR: '/tmp/x', INNKEEPER_WEB_PORT: '4321', INNKEEPER_DEMO: '1' }),
    ).toEqual({
      dataDir: '/tmp/x',
      webPort: 4321,
      forceDemo: true,
      demoDeliveries: true,
      intake: {},
      mailbox: {},
    });
    expect(readRuntimeConfig({ INNKEEPER_DEMO_INBOX: '0' }).demoDeliveries).toBe(false);
    expect(
      readRuntimeConfig({
        INNKEEPER_PUSH_PORT: '9000',
        INNKEEPER_PUSH_USER: 'su',
        INNKEEPER_PUSH_PASSWORD: 'a-long-password-123',
      }).intake,
    ).toEqual({
      port: 9000,
      username: 'su',
      password: 'a-long-password-123',
    });
  });

  it('names the variable when a value is wrong', () => {
    expect(() => readRuntimeConfig({ INNKEEPER_WEB_PORT: 'eighty' })).toThrow(/INNKEEPER_WEB_PORT/);
    expect(() => readRuntimeConfig({ INNKEEPER_DEMO: 'yes' })).toThrow(/INNKEEPER_DEMO/);
    expect(() => readRuntimeConfig({ INNKEEPER_DEMO_INBOX: 'off' })).toThrow(/INNKEEPER_DEMO_INBOX/);
    expect(() => readRuntimeConfig({ INNKEEPER_PUSH_PORT: 'x' })).toThrow(/INNKEEPER_PUSH_PORT/);
    expect(() => readRuntimeConfig({ INNKEEPER_PUSH_PASSWORD: 'short' })).toThrow(/INNKEEPER_PUSH_PASSWORD/);
    expect(() => readRuntimeConfig({ INNKEEPER_PUSH_PASSWORD: 'aaaaaaaaaaaaaaaa' })).toThrow(
      'INNKEEPER_PUSH_PASSWORD is easy to guess: it repeats one character',
    );
  });

  it('reads the mailbox to pair with at start: https, or http on this computer only', () => {
    expect(
      readRuntimeConfig({
        INNKEEPER_MAILBOX_URL: 'https://mailbox.example.com/',
        INNKEEPER_MAILBOX_CODE: '7k3m q9px a2rt',
      }).mailbox,
    ).toEqual({ url: 'https://mailbox.example.com', code: '7K3M-Q9PX-A2RT' });
    expect(readRuntimeConfig({ INNKEEPER_MAILBOX_URL: 'http://127.0.0.1:8788' }).mailbox).toEqual({
      url: 'http://127.0.0.1:8788',
    });
    expect(readRuntimeConfig({}).mailbox).toEqual({});
    expect(() => readRuntimeConfig({ INNKEEPER_MAILBOX_URL: 'http://mailbox.example.com' })).toThrow(
      /^INNKEEPER_MAILBOX_URL is "http:\/\/mailbox.example.com": Use the mailbox’s https:\/\/ address/,
    );
    expect(() => readRuntimeConfig({ INNKEEPER_MAILBOX_URL: 'mailbox.example.com' })).toThrow(/INNKEEPER_MAILBOX_URL/);
    expect(() => readRuntimeConfig({ INNKEEPER_MAILBOX_CODE: '7K3M-Q9PX-A2RT' })).toThrow(
      'INNKEEPER_MAILBOX_CODE is set without INNKEEPER_MAILBOX_URL',
    );
  });
});

describe('client-id', () => {
  it('is the base64 of the domain and reverses', () => {
    expect(clientIdFromDomain('demo.innkeeper.test')).toBe(Buffer.from('demo.innkeeper.test').toString('base64'));
    expect(domainFromClientId(clientIdFromDomain('ünï.example'))).toBe('ünï.example');
  });
});
