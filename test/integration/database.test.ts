import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/database';
import { MIGRATIONS } from '../../src/main/schema';
import { tempDir } from '../support/tempDir';
import { openAppDatabase } from '../../src/main/schema';

describe('database and migrations on a real file', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('creates the file, applies every migration, and runs in WAL with synchronous=FULL', () => {
    const path = join(dir.path, 'a', 'innkeeper.db');
    const db = openAppDatabase(path);
    expect(existsSync(path)).toBe(true);
    expect(db.version()).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    const tables = db.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    expect(tables).toContainEqual({ name: 'connection_check' });
    db.close();
  });

  it('reopening keeps data and applies nothing twice', () => {
    const path = join(dir.path, 'b.db');
    const first = openAppDatabase(path);
    first.db
      .prepare("INSERT INTO connection_check (environment, checked_at, ok, message) VALUES ('demo', 1, 1, 'ok')")
      .run();
    first.close();
    const second = openAppDatabase(path);
    expect(second.db.prepare('SELECT count(*) AS n FROM connection_check').get()).toEqual({ n: 1 });
    second.close();
  });

  it('applies only the migrations a file is missing, in order', () => {
    const path = join(dir.path, 'c.db');
    openDatabase(path, MIGRATIONS.slice(0, 1)).close();
    const extra = {
      version: MIGRATIONS.length + 1,
      name: 'test',
      sql: 'CREATE TABLE later_step (id INTEGER PRIMARY KEY);',
    };
    const db = openDatabase(path, [...MIGRATIONS, extra]);
    expect(db.version()).toBe(extra.version);
    db.close();
  });

  it('a failing migration leaves the previous schema intact', () => {
    const path = join(dir.path, 'd.db');
    openAppDatabase(path).close();
    const broken = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      sql: 'CREATE TABLE ok_part (id INTEGER); SELECT nonsense(',
    };
    expect(() => openDatabase(path, [...MIGRATIONS, broken])).toThrow();
    const db = openAppDatabase(path);
    expect(db.version()).toBe(MIGRATIONS.length);
    expect(db.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'ok_part'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('applies every pending migration in one commit: one failing leaves the file as it was, not part-way', () => {
    const path = join(dir.path, 'e.db');
    openDatabase(path, MIGRATIONS.slice(0, 1)).close();
    const broken = { version: MIGRATIONS.length + 1, name: 'broken', sql: 'SELECT nonsense(' };
    expect(() => openDatabase(path, [...MIGRATIONS, broken])).toThrow();
    const db = openDatabase(path, MIGRATIONS.slice(0, 1));
    expect(db.version()).toBe(1);
    db.close();
    const migrated = openAppDatabase(path);
    expect(migrated.version()).toBe(MIGRATIONS.length);
    migrated.close();
  });

  it('refuses a file written by a newer version instead of damaging it', () => {
    const path = join(dir.path, 'e.db');
    const newer = openDatabase(path, [...MIGRATIONS, { version: 99, name: 'future', sql: 'SELECT 1;' }]);
    newer.close();
    expect(() => openAppDatabase(path)).toThrow(/newer Innkeeper/);
  });

  it('a transaction that throws is rolled back', () => {
    const db = openAppDatabase(join(dir.path, 'f.db'));
    expect(() =>
      db.transaction(() => {
        db.db
          .prepare("INSERT INTO connection_check (environment, checked_at, ok, message) VALUES ('demo', 1, 1, 'x')")
          .run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.db.prepare('SELECT count(*) AS n FROM connection_check').get()).toEqual({ n: 0 });
    db.close();
  });

  it('a transaction inside another is a savepoint of it: undone alone when it throws, committed with the outer one', () => {
    const db = openAppDatabase(join(dir.path, 'g.db'));
    const check = (message: string) =>
      db.db
        .prepare("INSERT INTO connection_check (environment, checked_at, ok, message) VALUES ('demo', 1, 1, ?)")
        .run(message);
    const messages = () =>
      (db.db.prepare('SELECT message FROM connection_check ORDER BY id').all() as { message: string }[]).map(
        (r) => r.message,
      );
    db.transaction(() => {
      check('outer');
      db.transaction(() => check('inner, kept'));
      expect(() =>
        db.transaction(() => {
          check('inner, undone');
          throw new Error('inner boom');
        }),
      ).toThrow('inner boom');
      check('outer, after');
    });
    expect(messages()).toEqual(['outer', 'inner, kept', 'outer, after']);
    // The outer one failing takes what the inner ones did with it.
    expect(() =>
      db.transaction(() => {
        db.transaction(() => check('inner of a failed outer'));
        throw new Error('outer boom');
      }),
    ).toThrow('outer boom');
    expect(messages()).toEqual(['outer', 'inner, kept', 'outer, after']);
    expect(db.db.isTransaction).toBe(false);
    db.close();
  });
});
