import { describe, expect, it } from 'vitest';
import { connectionProfileInputSchema } from '../../src/shared/connection';
import { intakeSettingsInputSchema } from '../../src/shared/intake';
import { generatePassword, guessablePassword } from '../../src/shared/secretRules';
import { check } from '../../src/shared/validation';

const intake = (password: string) => check(intakeSettingsInputSchema, { port: 8787, username: 'su-partner', password });
const connection = (secrets: Record<string, string>) =>
  check(connectionProfileInputSchema, { environment: 'demo', domain: 'demo.innkeeper.test', secrets });

describe('a password the owner chooses is not easy to guess', () => {
  it.each([
    ['aaaaaaaaaaaaaaaa', 'it repeats one character'],
    ['AAAAaaaaAAAAaaaa', 'it repeats one character'],
    ['abababababababab', 'it repeats a short pattern'],
    ['Welcome!Welcome!', 'it repeats a short pattern'],
    ['abcdefghijklmnop', 'it runs along the alphabet'],
    ['1234567890123456', 'it runs along the alphabet'],
    ['ponmlkjihgfedcba', 'it runs along the alphabet'],
    ['abcdefgh12345678', 'it runs along the alphabet'],
    ['qwertyuiopasdfgh', 'it runs along the alphabet'],
    ['aaaabbbbccccdddd', 'it runs along the alphabet'],
    ['aabbaacc11bbaacc', 'fewer than 6 different characters'],
  ])('%s: %s', (password, why) => {
    expect(guessablePassword(password)).toContain(why);
    const result = intake(password);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The message names the field and says what to do.
    expect(result.error.fields?.password).toMatch(/^The password for Su is easy to guess: .+ Use Generate/);
    expect(result.error.fields?.password).toContain(why);
  });

  it('a password that is too short says so, naming the field', () => {
    const result = intake('Xq7-short');
    expect(!result.ok && result.error.fields?.password).toBe(
      'The password for Su needs at least 16 characters; use Generate for a strong one.',
    );
  });

  it('ordinary strong passwords pass, and every generated one does', () => {
    for (const password of [
      'correct horse battery staple',
      'store-faults-password-1234',
      'a-new-strong-password-42',
      'Gx7-harbour-pushes-Qm2',
    ]) {
      expect([password, guessablePassword(password)]).toEqual([password, null]);
      expect(intake(password).ok).toBe(true);
    }
    for (let i = 0; i < 2000; i += 1) {
      const password = generatePassword();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect([password, guessablePassword(password)]).toEqual([password, null]);
    }
  });
});

describe('a key or password Su issued is long enough to be one', () => {
  it.each([
    ['clientSecret', 'The client secret'],
    ['facilityApiKey', 'The facility API key'],
    ['paymentApiKey', 'The payment API key'],
    ['notificationPassword', 'The notification password'],
  ])('%s: a short one is refused with a message naming the field', (name, label) => {
    const result = connection({ [name]: 'Welcome' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fields?.[`secrets.${name}`]).toBe(
      `${label} is too short: Su’s keys and passwords have at least 12 characters. Paste the whole value Su gave you.`,
    );
  });

  it('keys shaped like Su’s, and the demo’s own, are taken as they are', () => {
    const result = connection({
      clientSecret: 'demo-client-secret',
      facilityApiKey: 'demo-api-key',
      paymentApiKey: 'kfpwsfnknknfwknfkwnknef9823rujfsormDFS3ijoncvowoeorfnv',
      notificationPassword: 'demo-password',
    });
    expect(result.ok).toBe(true);
  });

  it('an empty one (spaces only) still says how to keep the saved value', () => {
    const result = connection({ clientSecret: '   ' });
    expect(!result.ok && result.error.fields?.['secrets.clientSecret']).toBe(
      'Leave empty to keep the saved value, or type the new one.',
    );
  });
});
