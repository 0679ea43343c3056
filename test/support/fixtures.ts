import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The provider's real payloads in test/fixtures/su (raw text, as received). */
export const fixtureText = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'su', name), 'utf8');
