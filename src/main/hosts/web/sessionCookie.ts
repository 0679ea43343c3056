import { createHmac, timingSafeEqual } from 'node:crypto';
import { SESSION_PROOF_KEY_LABEL } from '../../../shared/sessionProof';

/**
 * Browser mode's session cookie: lets a browser that once opened the session link come back without it (a bookmark
 * of http://127.0.0.1:<port>/). Its value is `<issued, Unix seconds>.<HMAC-SHA256 of the port and that time, keyed
 * with the session token>`, so it holds no token, is valid only for this install's session secret on this port, and
 * for {@link SESSION_COOKIE_DAYS} days after it was issued (each visit issues it afresh).
 * SECURITY: HttpOnly (no script reads it), SameSite=Strict (no other site's page or link sends it), Path=/, no
 * Domain (only the loopback host it was set on). A new session token (another port, web-session.json deleted) voids
 * every cookie given out before. Cookies are not kept apart by port, so its name carries the port (two apps on two
 * ports keep their own), and a request it authenticates must come from the app's own page (its Origin; the web host
 * checks), never from a page of another program on another port.
 */
export const SESSION_COOKIE_DAYS = 90;
const MAX_AGE_S = SESSION_COOKIE_DAYS * 24 * 60 * 60;
/** A cookie issued a little in the future (the clock was set back) still counts, up to 5 minutes. */
const CLOCK_SLACK_S = 5 * 60;
const VALUE_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export const sessionCookieName = (port: number) => `innkeeper-session-${port}`;

const mac = (token: string, port: number, issued: number) =>
  createHmac('sha256', token).update(`innkeeper-session-cookie:${port}:${issued}`).digest('base64url');

/** The key the session proof is made with (the page that holds only the cookie is given it). */
export const sessionProofKey = (token: string) =>
  createHmac('sha256', token).update(SESSION_PROOF_KEY_LABEL).digest('base64url');

/** A fresh cookie's value. */
export function sessionCookieValue(token: string, port: number, nowMs = Date.now()): string {
  const issued = Math.floor(nowMs / 1000);
  return `${issued}.${mac(token, port, issued)}`;
}

/** The Set-Cookie header that gives the browser a fresh cookie. */
export const setSessionCookie = (token: string, port: number, nowMs = Date.now()) =>
  `${sessionCookieName(port)}=${sessionCookieValue(token, port, nowMs)}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict`;

/** The Set-Cookie header that removes the cookie (one no longer valid). */
export const clearSessionCookie = (port: number) =>
  `${sessionCookieName(port)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;

/** The values the Cookie header gives the cookie of this port (a browser may send more than one). */
export function sessionCookiesIn(header: string | undefined, port: number): string[] {
  if (!header) return [];
  const name = sessionCookieName(port);
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
}

/** Whether a cookie's value was issued for this token and port, within its lifetime (compared timing-safe). */
export function sessionCookieValid(token: string, port: number, value: string, nowMs = Date.now()): boolean {
  const match = VALUE_PATTERN.exec(value);
  if (!match) return false;
  const issued = Number(match[1]);
  const now = Math.floor(nowMs / 1000);
  if (issued > now + CLOCK_SLACK_S || now - issued > MAX_AGE_S) return false;
  const expected = Buffer.from(mac(token, port, issued));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
