import { describe, expect, it } from 'vitest';
import { statusFromHost } from '../../src/main/payments/checks';
import { displayMoney, formatMinor, minorDigits, parseAmount } from '../../src/shared/money';
import { formatPhone, phoneSchema } from '../../src/shared/phone';

describe('money as whole minor units', () => {
  it('reads what owners type with the currency’s own decimals, and never rounds', () => {
    expect(parseAmount('45.5', 'EUR')).toEqual({ ok: true, minor: 4550, text: '45.50' });
    expect(parseAmount(' 45,50 ', 'EUR')).toEqual({ ok: true, minor: 4550, text: '45.50' });
    expect(parseAmount('4500', 'JPY')).toEqual({ ok: true, minor: 4500, text: '4500' });
    expect(parseAmount('12.345', 'KWD')).toEqual({ ok: true, minor: 12345, text: '12.345' });
    expect(parseAmount('999999999999.99', 'EUR')).toEqual({ ok: true, minor: 99999999999999, text: '999999999999.99' });
    expect(parseAmount('45.555', 'EUR')).toMatchObject({ ok: false, message: expect.stringMatching(/2 decimals/) });
    expect(parseAmount('1.5', 'JPY')).toMatchObject({ ok: false, message: expect.stringMatching(/no decimals/) });
    for (const bad of ['', '1,000.00', '1.000,00', '-3', '+3', '1e2', '0x10', '.5', '0.00'])
      expect(parseAmount(bad, 'EUR').ok, bad).toBe(false);
  });

  it('writes minor units back exactly, and for people in their locale', () => {
    expect([formatMinor(5, 'EUR'), formatMinor(4550, 'EUR'), formatMinor(7, 'JPY'), formatMinor(1, 'BHD')]).toEqual([
      '0.05',
      '45.50',
      '7',
      '0.001',
    ]);
    expect(['EUR', 'JPY', 'KWD', 'HUF', 'IQD', 'CLF', 'nope'].map(minorDigits)).toEqual([2, 0, 3, 2, 3, 4, 2]);
    expect(displayMoney(4550, 'EUR', 'en-GB')).toBe('€45.50');
    expect(displayMoney(4550, 'EUR', 'de-DE').replace(/\s/g, ' ')).toBe('45,50 €');
    // Beyond a float's exact digits, the text is still exact.
    expect(displayMoney(900719925474099, 'EUR', 'en-US')).toBe('€9,007,199,254,740.99');
  });
});

describe('phone numbers', () => {
  it('takes international numbers as typed, answers E.164, and says what is wrong', () => {
    expect(phoneSchema().parse('+45 20 12 34 56')).toBe('+4520123456');
    expect(phoneSchema().parse('0044 (20) 7946-0958')).toBe('+442079460958');
    expect(phoneSchema().safeParse('20 12 34 56').error?.issues[0]?.message).toMatch(/Start with \+/);
    expect(phoneSchema().safeParse('+45 2012').error?.issues[0]?.message).toMatch(/not a valid/);
    expect(formatPhone('+4520123456')).toBe('+45 20 12 34 56');
    expect(formatPhone('+1 555')).toBeNull();
  });
});

describe('the host’s status words', () => {
  it('reads Success as paid, waiting words as requested, refusals as failed, anything else as unknown', () => {
    expect(statusFromHost('Success', true)).toBe('paid');
    for (const w of ['Pending', '', 'processing', 'In Progress']) expect(statusFromHost(w, false), w).toBe('requested');
    for (const w of ['Failed', 'Declined', 'CANCELLED', 'expired']) expect(statusFromHost(w, false), w).toBe('failed');
    expect(statusFromHost('Authorised', false)).toBe('unknown');
  });
});

describe('link addresses handed out', () => {
  it('only https, or http on this computer from the built-in demo provider', async () => {
    const { safeLinkUrl } = await import('../../src/main/payments/paymentsService');
    for (const provider of ['demo', 'sandbox', 'production'])
      expect(safeLinkUrl('https://token.suissu.com/get-cc?userId=ab12', provider)).toBe(true);
    expect(safeLinkUrl('http://127.0.0.1:4100/token/get-cc?userId=ab12', 'demo')).toBe(true);
    expect(safeLinkUrl('http://localhost:4100/token/get-cc?userId=ab12', 'demo')).toBe(true);
    for (const provider of ['sandbox', 'production']) {
      expect(safeLinkUrl('http://127.0.0.1:4100/token/get-cc?userId=ab12', provider)).toBe(false);
      expect(safeLinkUrl('http://localhost:4100/token/get-cc?userId=ab12', provider)).toBe(false);
    }
    for (const bad of ['http://token.suissu.com/get-cc', 'javascript:alert(1)', 'data:text/html,hi', 'not a url'])
      expect(safeLinkUrl(bad, 'demo'), bad).toBe(false);
  });
});
