import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  createContentsGuard,
  type GuardedContents,
  type PermissionAsker,
} from '../../src/main/hosts/electron/contentsGuard';

const APP = 'file:///opt/Innkeeper/resources/app.asar/out/renderer/index.html';

type PermissionRequest = (
  contents: unknown,
  permission: string,
  grant: (ok: boolean) => void,
  d: PermissionAsker,
) => void;
type PermissionCheck = (contents: unknown, permission: string, origin: string, d: PermissionAsker) => boolean;

/** A session as Electron's: one per partition, shared by the web contents that use it. */
class FakeSession {
  request: PermissionRequest | null = null;
  check: PermissionCheck | null = null;
  handlersSet = 0;
  setPermissionRequestHandler(handler: PermissionRequest) {
    this.request = handler;
    this.handlersSet++;
  }
  setPermissionCheckHandler(handler: PermissionCheck) {
    this.check = handler;
  }
  /** What a page asking for `permission` is answered. */
  ask(permission: string, asker: PermissionAsker): boolean {
    let granted: boolean | null = null;
    this.request!(null, permission, (ok) => (granted = ok), asker);
    expect(this.check!(null, permission, 'file://', asker)).toBe(granted);
    return granted!;
  }
}

/** Web contents as the guard sees them: events it can cancel and a window-open handler. */
class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  constructor(readonly session: FakeSession) {
    super();
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** Fires `event` as Electron would; true when the guard cancelled it. */
  attempt(event: string, url = ''): boolean {
    let cancelled = false;
    this.emit(event, { url, preventDefault: () => (cancelled = true) });
    return cancelled;
  }
}

function setup() {
  const opened: string[] = [];
  const guard = createContentsGuard({ appUrl: APP, openExternal: async (url) => void opened.push(url) });
  const session = new FakeSession();
  const create = (s = session) => {
    const contents = new FakeContents(s);
    guard(contents as unknown as GuardedContents);
    return contents;
  };
  return { create, session, opened };
}

describe('the guard on every web contents the app creates', () => {
  it('lets the app move between its own routes and stops every navigation or redirect elsewhere', () => {
    const contents = setup().create();
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(contents.attempt(event, `${APP}#/inbox/12`), event).toBe(false);
      expect(contents.attempt(event, 'https://evil.example/'), event).toBe(true);
      expect(contents.attempt(event, 'file:///etc/passwd'), event).toBe(true);
      expect(contents.attempt(event, 'not a url'), event).toBe(true);
    }
  });

  it('on the dev server, compares origins, not prefixes', () => {
    const guard = createContentsGuard({ appUrl: 'http://localhost:5173', openExternal: async () => undefined });
    const contents = new FakeContents(new FakeSession());
    guard(contents as unknown as GuardedContents);
    expect(contents.attempt('will-navigate', 'http://localhost:5173/#/rates')).toBe(false);
    expect(contents.attempt('will-navigate', 'http://localhost:5173.evil.example/')).toBe(true);
  });

  it('opens no window: an https link goes to the owner’s browser, anything else nowhere', () => {
    const { create, opened } = setup();
    const contents = create();
    for (const url of [
      'https://www.airbnb.com/hosting/inbox',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      `${APP}#/inbox`,
    ]) {
      expect(contents.openHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://www.airbnb.com/hosting/inbox']);
  });

  it('refuses to attach a <webview>', () => {
    expect(setup().create().attempt('will-attach-webview')).toBe(true);
  });

  it('denies every permission but notifications, and those only to the app’s own page in its main frame', () => {
    const { create, session } = setup();
    create();
    const app = { requestingUrl: `${APP}#/inbox`, isMainFrame: true };
    expect(session.ask('notifications', app)).toBe(true);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'hid', 'fullscreen']) {
      expect(session.ask(permission, app), permission).toBe(false);
    }
    expect(session.ask('notifications', { requestingUrl: 'https://evil.example/', isMainFrame: true })).toBe(false);
    expect(session.ask('notifications', { requestingUrl: APP, isMainFrame: false })).toBe(false);
    expect(session.ask('notifications', {})).toBe(false);
  });

  it('guards contents it did not make itself alike (a second window, a frame) and each session once', () => {
    const { create, session } = setup();
    const first = create();
    const second = create();
    const other = new FakeSession();
    const third = create(other);
    for (const contents of [first, second, third]) {
      expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
      expect(contents.openHandler).not.toBeNull();
    }
    expect(session.handlersSet).toBe(1);
    expect(other.handlersSet).toBe(1);
    expect(other.ask('media', { requestingUrl: APP, isMainFrame: true })).toBe(false);
  });
});
