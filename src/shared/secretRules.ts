import { z } from 'zod';

// What counts as a secret that is long enough to be one. The leak guard (main/gateway/secretLeaks.ts) removes every
// saved secret from what crosses to the screen: a secret short enough to be an ordinary word would be removed from
// guests' messages, and one a stranger can guess protects nothing.

/**
 * The shortest key or password Su issues that Innkeeper takes. Su's published sample of a payment key has 54
 * characters and its console generates the client secret; the built-in demo's shortest (the facility API key,
 * "demo-api-key") has 12. Anything shorter is a key cut off while copying, or not a key.
 */
export const PROVIDER_SECRET_MIN = 12;

/** The shortest password the owner chooses (the one Su uses to deliver messages): Generate makes 32 characters. */
export const OWN_PASSWORD_MIN = 16;

/**
 * A strong random password from the platform's CSPRNG (the browser's or Node's Web Crypto): 24 random bytes,
 * written as 32 URL-safe base64 characters.
 */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Rows of letters and digits someone may run along: the alphabet, the digits (0 after 9), keyboard rows. */
const RUNS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qwertzuiop',
  'yxcvbnm',
  'azertyuiop',
  'qsdfghjklm',
  'wxcvbn',
];

/** True when `b` follows `a` in one of the {@link RUNS}, either way, or repeats it (letters in either case). */
const predictableStep = (a: string, b: string): boolean => {
  if (a === b) return true;
  return RUNS.some((run) => run.includes(a + b) || run.includes(b + a));
};

/**
 * Why a password the owner chose is easy to guess, in the owner's words (to follow "The password … is easy to
 * guess: "), or null when it is not. Only what anyone would try first: one character repeated, a short pattern
 * repeated, a run along the alphabet, the digits or the keyboard (at most three runs, such as abcdefgh12345678),
 * or very few different characters. A generated password always passes.
 */
export function guessablePassword(password: string): string | null {
  const chars = [...password.toLowerCase()];
  const distinct = new Set(chars).size;
  if (distinct <= 1) return 'it repeats one character';
  for (let period = 2; period <= chars.length / 2; period += 1) {
    if (chars.every((c, i) => c === chars[i % period])) return 'it repeats a short pattern';
  }
  let jumps = 0;
  for (let i = 1; i < chars.length; i += 1) if (!predictableStep(chars[i - 1]!, chars[i]!)) jumps += 1;
  if (jumps <= 2) return 'it runs along the alphabet, the digits or the keyboard (like abcdefgh or 12345678)';
  if (distinct < 6) return 'it uses fewer than 6 different characters';
  return null;
}

/**
 * A password the owner chooses and gives to Su: at least {@link OWN_PASSWORD_MIN} characters, not easy to guess.
 * `label` names the field in the messages ("The password for Su").
 */
export const ownPasswordSchema = (label: string) =>
  z
    .string()
    .min(OWN_PASSWORD_MIN, `${label} needs at least ${OWN_PASSWORD_MIN} characters; use Generate for a strong one.`)
    .max(200, `${label}: at most 200 characters.`)
    .superRefine((value, ctx) => {
      const why = guessablePassword(value);
      if (why)
        ctx.addIssue({ code: 'custom', message: `${label} is easy to guess: ${why}. Use Generate for a strong one.` });
    });

/**
 * A key or password Su issued, as the owner pastes it: set when given, kept when omitted. At least
 * {@link PROVIDER_SECRET_MIN} characters; otherwise taken as Su wrote it (any characters Su's console may use).
 */
export const providerSecretSchema = (label: string) =>
  z
    .string()
    .trim()
    .min(1, 'Leave empty to keep the saved value, or type the new one.')
    .min(
      PROVIDER_SECRET_MIN,
      `${label} is too short: Su’s keys and passwords have at least ${PROVIDER_SECRET_MIN} characters. Paste the whole value Su gave you.`,
    )
    .max(1000, `${label}: at most 1000 characters.`);
