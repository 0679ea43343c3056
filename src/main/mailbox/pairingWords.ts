import { AppFailure, ErrorCode, errorText } from '../../shared/result';
import { MailboxRefusal, MailboxUnreachable } from './mailboxClient';

// Why a pairing with the mailbox did not happen (or another device could not be unpaired), in the owner's words.

/** A refusal naming its field (`url` or `code`), or a network failure that may be tried again. */
const failure = (message: string, field?: 'url' | 'code', retryable = false) =>
  new AppFailure({
    code: field ? ErrorCode.Validation : ErrorCode.Network,
    message,
    ...(field ? { field, fields: { [field]: message } } : {}),
    retryable,
  });

const MAKE_A_NEW_CODE = 'Make a new one on the mailbox (npm run mailbox -- pair) and enter it here.';

/** Why a pairing did not happen, in the owner's words, next to the field to change. */
export function pairingFailure(error: unknown, url: string): AppFailure {
  if (error instanceof MailboxRefusal) {
    switch (error.code) {
      case 'pairing_code_wrong': {
        const left = typeof error.body.triesLeft === 'number' ? error.body.triesLeft : null;
        const tries =
          left === null ? '' : left > 0 ? ` ${left} more ${left === 1 ? 'try' : 'tries'} before it stops working.` : '';
        return failure(`This pairing code is not right: check it where the mailbox printed it.${tries}`, 'code');
      }
      case 'pairing_locked':
        return failure(
          `This pairing code no longer works: it was entered wrong too many times. ${MAKE_A_NEW_CODE}`,
          'code',
        );
      case 'pairing_code_expired':
        return failure(
          `This pairing code has expired or was already used (a code works once, for 15 minutes). ${MAKE_A_NEW_CODE}`,
          'code',
        );
      default:
        if (error.body.field === 'code') return failure(error.message, 'code');
        return failure(`The mailbox at ${url} refused to pair: ${error.message}`, 'url');
    }
  }
  if (error instanceof MailboxUnreachable)
    return error.notAMailbox
      ? failure(`Innkeeper reached ${url}, but ${error.message}: is this the mailbox’s address?`, 'url')
      : failure(`Innkeeper could not reach the mailbox at ${url}: ${error.message}.`, 'url', true);
  return failure(`Pairing with the mailbox failed: ${errorText(error)}`, 'url', true);
}

/** Why another device could not be unpaired, in the owner's words (a message of its own, or what went wrong). */
export function deviceFailure(error: unknown): AppFailure {
  if (typeof error === 'string')
    return new AppFailure({
      code: ErrorCode.Validation,
      message: error,
      field: 'deviceId',
      fields: { deviceId: error },
      retryable: false,
    });
  if (error instanceof MailboxUnreachable)
    return failure(
      `Innkeeper could not reach the mailbox to unpair the device: ${error.message}. Try again.`,
      undefined,
      true,
    );
  if (error instanceof MailboxRefusal)
    return failure(`The mailbox refused to unpair the device: ${error.message}`, undefined, error.status >= 500);
  return failure(`Unpairing the device failed: ${errorText(error)}`, undefined, true);
}
