import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The provider's real payloads in ../shared/fixtures/su (raw text, as received). */
export const fixtureText = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'su', name), 'utf8');
