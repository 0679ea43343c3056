import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUptimeLog } from '../../src/main/db/uptime';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

describe('listener downtime', () => {
  it('a clean stop and a later start make one closed span; an unclean end is dated from the last heartbeat', () => {
    const dir = tempDir();
    const db = openAppDatabase(join(dir.path, 'db.sqlite'));
    let now = 1_000_000;
    const log = createUptimeLog(db, 'listener', () => now);
    log.up();
    now += 5_000;
    log.down();
    now += 120_000;
    log.up();
    expect(log.downSpans()).toEqual([{ component: 'listener', from: 1_005_000, to: 1_125_000, reason: 'stopped' }]);
    // The process dies without saying "down"; a new run finds the open "up".
    now += 1_000;
    const next = createUptimeLog(db, 'listener', () => now);
    next.up();
    const spans = next.downSpans();
    expect(spans).toHaveLength(2);
    expect(spans[1]).toEqual({ component: 'listener', from: 1_125_000, to: 1_126_000, reason: 'not stopped cleanly' });
    db.close();
    dir.remove();
  });
});
