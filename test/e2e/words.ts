import type { Page } from '@playwright/test';
import { FACILITY_ENUMS, FACILITY_KNOWN_VALUES } from '../../src/shared/su/facilities';
import { expect } from './app';

// The owner reads words: no enumeration code of the contract (ONLY_GUESTS, in_review, …), no request path
// (`2.instances.0.instance_id`, `physical_address`), no raw JSON and no undefined/null/NaN anywhere but in the
// exact-request block of a preview (`data-testid="preview-request"`).

/** Every enumeration code the contract names for the property's facilities, and the details' target. */
const CODES = [...Object.values(FACILITY_ENUMS).flat(), ...Object.values(FACILITY_KNOWN_VALUES).flat()];
export const codeWord = new RegExp(`\\b(${[...new Set(CODES)].join('|')})\\b`);
/** SOME_CODE, a_request_path, or a dotted path with a number in it (`2.instances.0`, `facilities.1.name`). */
export const codeLike = /\b[A-Z]{2,}_[A-Z0-9_]+\b|\b[a-z]+_[a-z_]+\b|\b[a-z_]+\.\d+\b|\b\d+\.[a-z_]+\b|\bproduction\b/;
/** What a value the screen never filled prints as, and JSON put on the screen as it is. */
export const rawValue = /\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]|\{\s*"[a-zA-Z_]+"\s*:/;

/**
 * What the owner can read on the page now: the text (without the exact-request block), what the inputs hold, and
 * the names given to screen readers.
 */
export async function readable(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const hidden = [...document.querySelectorAll('[data-testid="preview-request"]')];
    hidden.forEach((el) => (el.style.display = 'none'));
    const text = document.body.innerText;
    hidden.forEach((el) => (el.style.display = ''));
    const values = [...document.querySelectorAll('input, textarea')].map((i) => i.value);
    const names = [...document.querySelectorAll('[aria-label], [title], [placeholder]')].map(
      (el) => [el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('placeholder')].join(' '),
    );
    return [text, ...values, ...names].join('\\n');
  })()`)) as string;
}

/**
 * Fails naming each line that shows a code, a path or a raw value. `allow` lists what the owner is meant to read as
 * it is (exact text or patterns) — say, a placeholder like {{guest_first_name}} the owner types themselves: it is
 * taken out of each line before the line is read, so what else the line shows is still checked.
 */
export async function expectWords(page: Page, screen: string, allow: (string | RegExp)[] = []) {
  const shows = (l: string) => codeWord.test(l) || codeLike.test(l) || rawValue.test(l);
  const withoutAllowed = (line: string) =>
    allow.reduce<string>(
      (rest, a) =>
        typeof a === 'string'
          ? rest.split(a).join(' ')
          : rest.replace(new RegExp(a.source, a.flags.includes('g') ? a.flags : `${a.flags}g`), ' '),
      line,
    );
  const lines = (await readable(page))
    .split('\n')
    .filter(shows)
    .filter((l) => shows(withoutAllowed(l)));
  expect(lines, `${screen} shows codes, paths or raw values`).toEqual([]);
}
