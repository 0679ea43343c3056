import { describe, expect, it, vi } from 'vitest';
import type { DataFileStatus } from '@shared/dataFile';
import { fail, ok } from '@shared/result';
import { liveValue } from '@renderer/api/liveValue';
import { installFakeApi, settle } from './fakeApi';

// The four live values of the shell (the data file's health, the listener's, the demo's, the connection settings)
// are read and followed by liveValue; liveReads.test plays their races store by store.
const health = (restorePending: DataFileStatus['restorePending']) => ({ restorePending }) as unknown as DataFileStatus;

describe('liveValue', () => {
  it('reads the value, and follows its event until stopped', async () => {
    const core = installFakeApi({ 'dataFile.status': () => ok(health(null)) });
    const live = liveValue('dataFile.status', 'dataFile.changed');
    expect(live.value.value).toBeNull();
    await live.load();
    expect(live.value.value).toEqual(health(null));
    const stop = live.listen();
    const pending = { file: 'b.db', takenAt: 1 } as DataFileStatus['restorePending'];
    core.emit('dataFile.changed', health(pending));
    expect(live.value.value).toEqual(health(pending));
    stop();
    core.emit('dataFile.changed', health(null));
    expect(live.value.value).toEqual(health(pending));
  });

  it('keeps what an event said over the answer of a read started before it', async () => {
    const core = installFakeApi();
    const live = liveValue('dataFile.status', 'dataFile.changed');
    live.listen();
    const loading = live.load();
    const newer = health({ file: 'new.db', takenAt: 2 } as DataFileStatus['restorePending']);
    core.emit('dataFile.changed', newer);
    core.pending('dataFile.status')[0]!.answer(ok(health(null)));
    await loading;
    await settle();
    expect(live.value.value).toEqual(newer);
  });

  it('says a read the core could not answer, and each event before the value changes', async () => {
    const core = installFakeApi({
      'connection.get': () => fail({ code: 'offline', message: 'The app is not running.' }),
    });
    const failed = vi.fn();
    const seen: unknown[] = [];
    const live = liveValue('connection.get', 'connection.changed', {
      failed,
      heard: (next) => seen.push([next, live.value.value]),
    });
    await live.load();
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: 'The app is not running.' }));
    expect(live.value.value).toBeNull();
    live.listen();
    const state = { active: 'demo' } as never;
    core.emit('connection.changed', state);
    expect(seen).toEqual([[state, null]]);
    expect(live.value.value).toEqual(state);
  });
});
