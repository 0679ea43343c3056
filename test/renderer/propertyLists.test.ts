import { describe, expect, it } from 'vitest';
import {
  countryChoices,
  currencyChoices,
  HALF_HOURS,
  languageChoices,
  languageName,
  searchLanguages,
  withCurrent,
} from '@renderer/lib/intlLists';

describe('the details form’s value lists come from Intl', () => {
  it('lists every country Intl names, by name, without the regions that are not countries', () => {
    const countries = countryChoices();
    const codes = countries.map((c) => c.value);
    expect(countries.find((c) => c.value === 'GB')?.label).toBe('United Kingdom');
    expect(countries.find((c) => c.value === 'JP')?.label).toBe('Japan');
    for (const notACountry of ['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']) expect(codes).not.toContain(notACountry);
    // Only codes Intl has a name for (AA, a private-use code, has none).
    expect(codes).not.toContain('AA');
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    expect(countries.length).toBeGreaterThan(240);
    const labels = countries.map((c) => c.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('lists every currency the browser supports, with its name', () => {
    const currencies = currencyChoices();
    expect(currencies.map((c) => c.value)).toEqual(Intl.supportedValuesOf('currency'));
    expect(currencies.find((c) => c.value === 'EUR')?.label).toBe('EUR · Euro');
  });

  it('lists two-letter languages with English names, and offers any typed tag first', () => {
    const languages = languageChoices();
    expect(languages.find((c) => c.value === 'en')?.label).toBe('English');
    expect(languages.every((c) => /^[a-z]{2}$/.test(c.value))).toBe(true);

    expect(searchLanguages('en-gb')[0]).toBe('en-gb');
    expect(searchLanguages('EN-GB')[0]).toBe('en-GB');
    expect(searchLanguages('germ')).toContain('de');
    expect(searchLanguages('de')[0]).toBe('de');
    // Chosen ones are not offered again.
    expect(searchLanguages('english', ['en'])).not.toContain('en');
    expect(searchLanguages('not a tag!')).toEqual([]);
    expect(languageName('en-GB')).toBe('British English');
    expect(languageName('%%')).toBeNull();
  });

  it('offers the half hours from 00:00 to 23:30', () => {
    expect(HALF_HOURS).toHaveLength(48);
    expect(HALF_HOURS[0]).toBe('00:00');
    expect(HALF_HOURS[31]).toBe('15:30');
    expect(HALF_HOURS[47]).toBe('23:30');
  });

  it('keeps a value that is not in the list among the choices, so it is shown and not lost', () => {
    const list = [{ value: 'A', label: 'a' }];
    expect(withCurrent(list, 'A')).toBe(list);
    expect(withCurrent(list, '')).toBe(list);
    expect(withCurrent(list, 'QQ')[0]).toEqual({ value: 'QQ', label: 'QQ (not in the list)' });
  });
});
