import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notice, NoticesView } from '@shared/notices';
import { ok } from '@shared/result';
import { useNoticesStore } from '@renderer/features/property/notices/noticesStore';
import { noticesRoute } from '@renderer/features/property/notices/useNoticeAlerts';
import { installFakeApi } from './fakeApi';

const notice = (over: Partial<Notice> = {}): Notice => ({
  id: 1,
  hotelId: 'H1',
  accountId: 'A-77',
  notificationId: 'n1',
  type: 'ACCOUNT_ALERT',
  title: 'Verify your identity',
  subtitle: 'Airbnb needs a document',
  actionUrl: 'https://www.airbnb.com/verify',
  firstSeenAt: 1_700_000_000_000,
  seenAt: null,
  ...over,
});

const list = (over: Partial<NoticesView> = {}): NoticesView => ({
  notices: [notice()],
  accounts: [{ hotelId: 'H1', accountId: 'A-77', ok: true, message: null, checkedAt: 1 }],
  checks: [{ hotelId: 'H1', lastOkAt: 1, lastTriedAt: 1, error: null, nextAt: null }],
  unseen: 3,
  hotelIds: ['H1'],
  ...over,
});

beforeEach(() => setActivePinia(createPinia()));

describe('the notices store', () => {
  it('counts unseen notices from the start and follows the core’s news, telling the alerts what is new', async () => {
    const core = installFakeApi({ 'notices.list': () => ok(list()) });
    const notices = useNoticesStore();
    notices.listen();
    await notices.loadUnseen();
    expect(notices.unseen).toBe(3);

    const heard: Notice[] = [];
    const stop = notices.onAdded((n) => heard.push(n));
    core.emit('notices.changed', { unseen: 4, added: [notice({ id: 2 })] });
    expect(notices.unseen).toBe(4);
    expect(heard.map((n) => n.id)).toEqual([2]);
    stop();
    core.emit('notices.changed', { unseen: 5, added: [notice({ id: 3 })] });
    expect(heard).toHaveLength(1);
  });

  it('says whether the property is checked at all (only properties with Airbnb are)', async () => {
    installFakeApi({ 'notices.list': () => ok(list({ notices: [], hotelIds: ['H2'] })) });
    const notices = useNoticesStore();
    await notices.open('H1');
    expect(notices.checked).toBe(false);
  });

  it('opens a call to action in the system browser, with no handle on this window', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    installFakeApi({
      'notices.list': () => ok(list()),
      'notices.open': () => ok({ url: 'https://www.airbnb.com/verify' }),
    });
    const notices = useNoticesStore();
    await notices.open('H1');
    expect(await notices.openAction(1)).toBeNull();
    expect(open).toHaveBeenCalledWith('https://www.airbnb.com/verify', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it('marks one notice or all of the property seen, and checks now', async () => {
    const marked: unknown[] = [];
    installFakeApi({
      'notices.list': () => ok(list()),
      'notices.markSeen': (args: unknown) => (marked.push(args), ok({ unseen: 0 })),
      'notices.checkNow': () => ok(list({ unseen: 9 })),
    });
    const notices = useNoticesStore();
    await notices.open('H1');
    expect(notices.unseenHere).toBe(1);
    await notices.markSeen([1]);
    await notices.markSeen();
    expect(marked).toEqual([{ ids: [1] }, { hotelId: 'H1' }]);
    expect(await notices.checkNow()).toBeNull();
    expect(notices.unseen).toBe(9);
  });

  it('opens Property → Notices of the notice’s property', () => {
    expect(noticesRoute('H 1')).toBe('/property/H%201/notices');
  });
});
