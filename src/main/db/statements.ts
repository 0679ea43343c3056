import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** More distinct statements than filing a delivery ever prepares: past it the cache starts over (never grows
 * unbounded). */
const MOST = 200;
const facades = new WeakMap<DatabaseSync, DatabaseSync>();

/**
 * The same connection, with `prepare` answered from a cache: filing a delivery prepares the same few statements each
 * time, and preparing one that fires the search triggers costs more than running it. SQLite re-prepares a cached
 * statement by itself when the schema changes. For code that runs each statement to its end (`run`, `get`,
 * `all`), as filing a delivery does; everything else is the connection itself.
 */
export function withCachedStatements(db: DatabaseSync): DatabaseSync {
  let facade = facades.get(db);
  if (facade) return facade;
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= MOST) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  facade = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  facades.set(db, facade);
  return facade;
}
