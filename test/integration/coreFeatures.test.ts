import { afterEach, describe, expect, it } from 'vitest';
import { createCoreBus } from '../../src/main/bus';
import { createFileSecrets } from '../../src/main/config/secrets';
import { createConfSettings } from '../../src/main/config/settings';
import { connectionFeature } from '../../src/main/connection/feature';
import { createCore, type CoreDeps } from '../../src/main/core';
import { schemaOf } from '../../src/main/db/migrations';
import { defineFeature, type AnyFeature } from '../../src/main/feature';
import { FEATURES } from '../../src/main/features';
import { outboxFeature } from '../../src/main/outbox/feature';
import { outboxFor } from '../../src/main/outbox/outbox';
import type { OutboxItem, OutboxKind } from '../../src/main/outbox/types';
import { METHODS } from '../../src/shared/contract';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';

// The core as a composition root: it builds whatever list of features it is given, in order, and knows none of them
// by name. These tests give it small features of their own, on a real data file.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function deps(features: readonly AnyFeature[]): CoreDeps {
  const dir = tempDir('innkeeper-core-features-');
  cleanups.push(dir.remove);
  return {
    host: 'browser',
    version: '0.0.0-test',
    dataDir: dir.path,
    settings: createConfSettings(dir.path),
    secrets: createFileSecrets(dir.path),
    features,
  };
}

/** A feature that records when it is built, started and stopped. */
const recording = (name: string, log: string[], parts: object = {}) =>
  defineFeature({
    name,
    create: () => {
      log.push(`create ${name}`);
      return { ...parts, start: () => void log.push(`start ${name}`), stop: () => void log.push(`stop ${name}`) };
    },
  });

describe('the core builds itself from a list of features', () => {
  it('builds and starts them in list order, stops them in reverse, and says when all have started', async () => {
    const log: string[] = [];
    const core = createCore(deps([recording('first', log), recording('second', log), recording('third', log)]));
    core.bus.on('coreStarted', () => void log.push('started'));
    expect(log).toEqual(['create first', 'create second', 'create third']);
    await core.start();
    await core.close();
    expect(log.slice(3)).toEqual([
      'start first',
      'start second',
      'start third',
      'started',
      'stop third',
      'stop second',
      'stop first',
    ]);
  });

  it('a feature uses what an earlier one provides; a later one it may not use, and is told to reorder the list', () => {
    const clock = defineFeature({ name: 'clock', create: () => ({ provides: { hour: () => 14 } }) });
    const greeter = defineFeature({
      name: 'greeter',
      create: (context) => ({ provides: { greeting: context.use(clock).hour() < 18 ? 'Good afternoon' : 'Evening' } }),
    });
    const core = createCore(deps([clock, greeter]));
    cleanups.push(() => core.close());
    expect(core.use(greeter).greeting).toBe('Good afternoon');
    expect(() => createCore(deps([greeter, clock]))).toThrow(
      'The clock feature is used before it is built: list it earlier in features.ts.',
    );
  });

  it('two features may not answer the same method, nor declare the same outbox kind', () => {
    const info = () => ({ version: '', host: 'browser' as const, dataDir: '', secretStorage: 'file' as const });
    const a = defineFeature({ name: 'a', create: () => ({ handlers: { 'app.info': info } }) });
    const b = defineFeature({ name: 'b', create: () => ({ handlers: { 'app.info': info } }) });
    expect(() => createCore(deps([a, b]))).toThrow('Two features declare the method app.info (the second: b).');
    const kind: OutboxKind = { send: async () => ({}) };
    const c = defineFeature({ name: 'c', create: () => ({ outboxKinds: { 'toy-send': kind } }) });
    const d = defineFeature({ name: 'd', create: () => ({ outboxKinds: { 'toy-send': kind } }) });
    expect(() => createCore(deps([c, d]))).toThrow('Two features declare the outbox kind toy-send (the second: d).');
  });

  it('the app’s list answers every method of the contract, each from the feature of its prefix', () => {
    const core = createCore(deps(FEATURES));
    cleanups.push(() => core.close());
    const prefixes = new Set(METHODS.map((method) => method.split('.')[0]));
    expect([...prefixes].sort()).toEqual(
      FEATURES.map((f) => f.name)
        .filter((name) => prefixes.has(name))
        .sort(),
    );
  });

  it('collects the features’ schema steps by version, in list order; refuses a gap and a version claimed twice', () => {
    const a = defineFeature({
      name: 'a',
      migrations: [
        { version: 1, name: 'a one', sql: 'CREATE TABLE a (id INTEGER PRIMARY KEY);' },
        { version: 2, name: 'a two', sql: 'CREATE TABLE a_notes (a_id INTEGER REFERENCES a (id));' },
        { version: 4, name: 'a four', sql: 'ALTER TABLE a ADD COLUMN note TEXT;' },
      ],
      create: () => ({}),
    });
    const b = defineFeature({
      name: 'b',
      migrations: [
        // Version 2 was released as one step of several features' tables: b's part runs after a's.
        { version: 2, name: 'b two', sql: 'CREATE TABLE b (a_id INTEGER REFERENCES a (id));' },
        { version: 3, name: 'b three', sql: 'CREATE INDEX b_by_a ON b (a_id);' },
      ],
      create: () => ({}),
    });
    expect(schemaOf([a, b]).map((m) => [m.version, m.name])).toEqual([
      [1, 'a one'],
      [2, 'a two; b two'],
      [3, 'b three'],
      [4, 'a four'],
    ]);
    const core = createCore(deps([a, b]));
    cleanups.push(() => core.close());
    expect(core.db.version()).toBe(4);
    const columns = core.db.db.prepare("SELECT name FROM pragma_table_info('a')").all();
    expect(columns).toEqual([{ name: 'id' }, { name: 'note' }]);
    expect(() => schemaOf([a])).toThrow("The schema has no step 3 (the features' steps go up to 4).");
    // Any other version is one feature's: a second claim (a released number reused) is refused with the next free one.
    const late = defineFeature({
      name: 'late',
      migrations: [{ version: 4, name: 'late four', sql: 'SELECT 1;' }],
      create: () => ({}),
    });
    expect(() => schemaOf([a, b, late])).toThrow(
      'Two features claim schema step 4 (a four; late four): a new step takes the next free version, 5.',
    );
  });
});

describe('the outbox tells only the feature that owns an item', () => {
  it('each kind’s feature hears its own items (queued, sending, sent), the other feature nothing of them', async () => {
    const heard: Record<string, string[]> = { ours: [], theirs: [] };
    const settled: OutboxItem[] = [];
    const kind = (owner: string): OutboxKind<{ text: string }> => ({
      send: async (payload) => ({ echoed: payload.text }),
      changed: (item) => void heard[owner]!.push(`${item.kind} ${item.state}`),
    });
    const ours = defineFeature({
      name: 'ours',
      create: (context) => {
        const outbox = outboxFor<{ 'ours-send': OutboxKind<{ text: string }> }>(context.use(outboxFeature));
        return {
          outboxKinds: { 'ours-send': kind('ours') },
          provides: {
            send: (text: string) => context.database.transaction(() => outbox.enqueue('ours-send', 'ours:1', { text })),
          },
        };
      },
    });
    const theirs = defineFeature({
      name: 'theirs',
      create: () => ({ outboxKinds: { 'theirs-send': kind('theirs') } }),
    });
    // Only the connection and the outbox of the app's features: the steps they do not bring are empty ones.
    const gaps = defineFeature({
      name: 'gaps',
      migrations: [3, 4, 5, 6, 7, 8].map((version) => ({ version, name: 'nothing', sql: 'SELECT 1;' })),
      create: () => ({}),
    });
    const core = createCore(deps([gaps, connectionFeature, outboxFeature, ours, theirs]));
    cleanups.push(() => core.close());
    core.bus.on('outboxSettled', (item) => void settled.push(item));
    await core.start();

    const item = core.use(ours).send('Hello');
    await eventually(
      async () => settled.length,
      (n) => n === 1,
    );
    expect(heard.ours).toEqual(['ours-send queued', 'ours-send sending', 'ours-send sent']);
    expect(heard.theirs).toEqual([]);
    expect(settled[0]).toMatchObject({ id: item.id, state: 'sent', result: { echoed: 'Hello' } });
  });
});

describe('the core bus', () => {
  it('a listener that throws is logged; the others still hear the event, and an unsubscribed one does not', () => {
    const bus = createCoreBus();
    const heard: string[] = [];
    bus.on('reviewFiled', () => {
      throw new Error('a broken listener');
    });
    const stop = bus.on('reviewFiled', ({ reviewId }) => void heard.push(`first ${reviewId}`));
    bus.on('reviewFiled', ({ reviewId }) => void heard.push(`second ${reviewId}`));
    bus.emit('reviewFiled', { reviewId: 7, created: true });
    stop();
    bus.emit('reviewFiled', { reviewId: 8, created: false });
    expect(heard).toEqual(['first 7', 'second 7', 'second 8']);
  });
});
