import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataFileStatus } from '@shared/dataFile';
import DataFileBanner from '@renderer/features/dataFile/DataFileBanner.vue';
import DataFileHealth from '@renderer/features/dataFile/DataFileHealth.vue';
import { useDataFileStore } from '@renderer/features/dataFile/dataFileStore';
import { formatDateTime } from '@renderer/lib/format';
import { installFakeApi, settle } from './fakeApi';

const SINCE = Date.UTC(2026, 10, 23, 6, 10);
const BACKUP = Date.UTC(2026, 10, 22, 22, 10);
const ok = <T>(value: T) => ({ ok: true as const, value });

const store = (over: Partial<DataFileStatus> = {}): DataFileStatus => ({
  problem: null,
  backups: [],
  restorePending: null,
  lastRestore: null,
  downtime: [],
  ...over,
});

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});
const mountWith = (component: typeof DataFileHealth | typeof DataFileBanner, props: Record<string, unknown> = {}) =>
  mount(component, {
    props,
    global: { plugins: [PrimeVue, pinia], stubs: { RouterLink: { template: '<a><slot /></a>' } } },
  });

describe('the store on the Connection screen', () => {
  it('a full disk: "cannot store … since", the reason, and what to do', () => {
    installFakeApi();
    const wrapper = mountWith(DataFileHealth, {
      store: store({
        problem: { kind: 'cannot-write', since: SINCE, reason: 'the disk is full (SQLite: database or disk is full)' },
      }),
    });
    const text = wrapper.get('[data-testid="store-problem"]').text();
    expect(text).toContain(
      `Innkeeper cannot store new messages and reviews since ${formatDateTime(SINCE)}: the disk is full (SQLite: database or disk is full).`,
    );
    expect(text).toContain('Free some space on the disk');
    expect(text).toContain('up to three times');
    expect(wrapper.find('[data-testid="store-backup"]').exists()).toBe(false);
  });

  it('a damaged file: since when, the last sound check, and each backup with what restoring it keeps', async () => {
    const core = installFakeApi();
    const damaged = store({
      problem: {
        kind: 'damaged',
        since: SINCE,
        reason: 'the data file failed its integrity check',
        lastGoodCheck: BACKUP,
      },
      backups: [
        { file: 'innkeeper-1795385400000.db', takenAt: BACKUP, deliveriesAfter: 3 },
        { file: 'innkeeper-1795370000000.db', takenAt: BACKUP - 4 * 3600_000, deliveriesAfter: null },
      ],
    });
    const wrapper = mountWith(DataFileHealth, { store: damaged });
    const problem = wrapper.get('[data-testid="store-problem"]').text();
    expect(problem).toContain(`not accepting new messages since ${formatDateTime(SINCE)}`);
    expect(problem).toContain(`The last check that found it sound was at ${formatDateTime(BACKUP)}`);
    const rows = wrapper.findAll('[data-testid="store-backup"]');
    expect(rows[0]!.text()).toContain('3 messages and reviews received after it are read back from the damaged file');
    expect(rows[1]!.text()).toContain('they are lost unless Su sends them again');
    // SQLite's words are only for this test's plain reason: none here, so nothing to copy.
    expect(wrapper.find('[data-testid="store-copy-report"]').exists()).toBe(false);

    await rows[0]!.get('button').trigger('click');
    const [call] = core.pending('dataFile.restoreBackup');
    expect(call!.args).toEqual({ file: 'innkeeper-1795385400000.db' });
    const pending = {
      ...damaged,
      restorePending: { file: 'innkeeper-1795385400000.db', takenAt: BACKUP, requestedAt: SINCE },
    };
    call!.answer(ok(pending));
    await settle();
    expect(useDataFileStore().status?.restorePending?.file).toBe('innkeeper-1795385400000.db');

    await wrapper.setProps({ store: pending });
    expect(wrapper.get('[data-testid="store-restore-pending"]').text()).toContain(
      `The backup of ${formatDateTime(BACKUP)} will be restored the next time Innkeeper starts`,
    );
    expect(wrapper.find('[data-testid="store-backup"]').exists()).toBe(false);
    await wrapper.get('[data-testid="store-restore-pending"] button').trigger('click');
    expect(core.pending('dataFile.cancelRestore')).toHaveLength(1);
  });

  it('after a restore: what was kept, and says pushes are lost only when they are', () => {
    installFakeApi();
    const last = { takenAt: BACKUP, restoredAt: SINCE, refiled: 2, unreadable: null, keptAs: '/data/damaged/x.db' };
    const kept = mountWith(DataFileHealth, { store: store({ lastRestore: last }) });
    const text = kept.get('[data-testid="store-last-restore"]').text();
    expect(text).toContain('2 messages and reviews received after the backup were read back from the damaged file');
    expect(text).not.toMatch(/lost/);
    const lost = mountWith(DataFileHealth, {
      store: store({ lastRestore: { ...last, refiled: 0, unreadable: 'malformed' } }),
    });
    expect(lost.get('[data-testid="store-last-restore"]').text()).toContain('they are lost unless Su sent them again');
    const automatic = mountWith(DataFileHealth, {
      store: store({ lastRestore: { ...last, automatic: true, refiled: 0, unreadable: 'malformed' } }),
    });
    expect(automatic.get('[data-testid="store-last-restore"]').text()).toContain(
      `The data file was too damaged to open, so Innkeeper restored its newest backup, of ${formatDateTime(BACKUP)}`,
    );
  });

  it('a restore that did not happen says why and what happens now', () => {
    installFakeApi();
    const problem = { at: SINCE, takenAt: BACKUP, pending: false };
    const text = (restoreProblem: DataFileStatus['restoreProblem']) =>
      mountWith(DataFileHealth, { store: store({ restoreProblem }) })
        .get('[data-testid="store-restore-problem"]')
        .text();
    expect(text({ ...problem, kind: 'backup-missing', detail: 'innkeeper-1.db is not in /data/backups' })).toContain(
      `Innkeeper did not restore the backup of ${formatDateTime(BACKUP)}: it is no longer in the backups folder`,
    );
    expect(text({ ...problem, kind: 'backup-damaged', detail: 'wrong # of entries' })).toContain(
      'it is damaged too (wrong # of entries). It kept using the current data file',
    );
    expect(
      text({ ...problem, kind: 'folder-in-use', detail: 'another Innkeeper (process 4321)', pending: true }),
    ).toContain('another Innkeeper (process 4321) has the same data file open');
    expect(text({ ...problem, kind: 'refile-failed', detail: 'the disk is full', pending: true })).toContain(
      'are filed the next time Innkeeper starts',
    );
    expect(
      text({ ...problem, takenAt: null, kind: 'request-unreadable', detail: 'keptAs: unrecognized key' }),
    ).toContain('a restore request it could not read (keptAs: unrecognized key) and restored nothing');
    expect(mountWith(DataFileHealth, { store: store() }).find('[data-testid="store-restore-problem"]').exists()).toBe(
      false,
    );
  });
});

describe('the banner on every screen', () => {
  it('shows while pushes cannot be stored, and goes when they can', async () => {
    const core = installFakeApi();
    const dataFile = useDataFileStore();
    dataFile.listen();
    const wrapper = mountWith(DataFileBanner);
    expect(wrapper.find('[data-testid="store-banner"]').exists()).toBe(false);
    core.emit(
      'dataFile.changed',
      store({
        problem: {
          kind: 'cannot-write',
          since: SINCE,
          reason: 'the disk is full (SQLite: database or disk is full)',
        },
      }),
    );
    await settle();
    expect(wrapper.get('[data-testid="store-banner"]').text()).toContain(
      `cannot store new messages and reviews since ${formatDateTime(SINCE)}: the disk is full.`,
    );
    core.emit('dataFile.changed', store());
    await settle();
    expect(wrapper.find('[data-testid="store-banner"]').exists()).toBe(false);
  });
});

describe('SQLite’s report of a damaged file', () => {
  it('is not in the owner’s sentence (its index names and error codes): it is there to copy for support', async () => {
    installFakeApi();
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void writes.push(text) },
      configurable: true,
    });
    const report = '*** in database main *** Tree 18 page 18: btreeInitPage() returns error code 11';
    const wrapper = mountWith(DataFileHealth, {
      store: store({
        problem: {
          kind: 'damaged',
          since: SINCE,
          reason: `the data file failed its integrity check (SQLite: ${report})`,
          lastGoodCheck: BACKUP,
        },
      }),
    });
    const problem = wrapper.get('[data-testid="store-problem"]');
    expect(problem.text()).toContain('Details: the data file failed its integrity check.');
    expect(problem.text()).not.toContain('btreeInitPage');
    await problem.get('[data-testid="store-copy-report"]').trigger('click');
    await new Promise((resolve) => setTimeout(resolve));
    expect(writes).toEqual([report]);
    expect(problem.text()).toContain('Copied');
  });
});
