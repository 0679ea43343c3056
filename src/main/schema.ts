import { openDatabase, type Database } from './db/database';
import { schemaOf } from './db/migrations';
import { FEATURES } from './features';

/** The app's schema: every feature's steps, in the order of the feature list. */
export const MIGRATIONS = schemaOf(FEATURES);

/** Opens a data file with the app's schema (tools, benchmarks and tests that work on the file without a core). */
export function openAppDatabase(path: string, options: { now?: () => number; checkApart?: boolean } = {}): Database {
  return openDatabase(path, MIGRATIONS, options.now, { checkApart: options.checkApart ?? false });
}
