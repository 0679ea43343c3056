import { describe, expect, it } from 'vitest';
import { hostFieldText, hostMessage, hostStatusWords } from '@renderer/features/payments/paymentWords';

// The payment host writes its refusals as `email_address : already registered for another partner` and its
// statuses as its own words ("Success", "Pending", "invalid"): the owner reads sentences that name each field.

describe('the payment host in words', () => {
  it('a field the host refused is named in words, its reason said as a sentence', () => {
    expect(hostFieldText('email_address', 'already registered for another partner')).toBe(
      'The e-mail address is already registered for another partner.',
    );
    expect(hostFieldText('contact_number', 'invalid (international format such as +4520123456)')).toBe(
      'The phone number is not valid (international format such as +4520123456).',
    );
    expect(hostFieldText('order_id', 'already used')).toBe('The order id is already used.');
    expect(hostFieldText('booking_id', 'missing')).toBe('The booking id is missing.');
    expect(hostFieldText('transaction_id', 'invalid')).toBe('The transaction id is not one the payment host knows.');
    expect(hostFieldText('partner_id', 'inactive')).toBe('The partner account is inactive at the payment host.');
    // A field Innkeeper has no name for still reads as words, never as `some_field`.
    expect(hostFieldText('pg_reference', 'invalid')).toBe('The pg reference is not valid.');
    // The core's own messages are sentences already.
    expect(hostFieldText('transaction_id', 'The transaction id is required.')).toBe('The transaction id is required.');
  });

  it('a refusal with fields says what failed and then each field, never the host’s bare “invalid”', () => {
    const message = hostMessage({
      message: 'Checking the payment failed: invalid.',
      fields: { transaction_id: 'invalid' },
    });
    expect(message).toBe('Checking the payment failed: The transaction id is not one the payment host knows.');
    expect(message).not.toMatch(/transaction_id|: invalid/);
    expect(hostMessage({ message: 'The payment host did not answer.' })).toBe('The payment host did not answer.');
  });

  it('the host’s status word only where it says more than the chip', () => {
    expect(hostStatusWords({ status: 'paid', hostStatus: 'Success' })).toBeNull();
    expect(hostStatusWords({ status: 'requested', hostStatus: 'Pending' })).toBeNull();
    expect(hostStatusWords({ status: 'failed', hostStatus: 'Failed' })).toBeNull();
    expect(hostStatusWords({ status: 'failed', hostStatus: 'Declined' })).toBe('The host says: declined');
    expect(hostStatusWords({ status: 'unknown', hostStatus: 'onhold' })).toBe(
      'The host answered “onhold”, a status Innkeeper does not know',
    );
  });
});
